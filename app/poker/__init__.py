"""The pure poker core: cards, hand evaluation, equity, the betting engine, PHH."""
