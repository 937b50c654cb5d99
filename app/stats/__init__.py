"""Player statistics from the hands a viewer saw, and private notes about players."""
