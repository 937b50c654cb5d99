"""Values this project published once and no file of it holds now.

The SHA-256 (hex) of every value that looks like a generated key
(:func:`app.secret_strength.key_runs`) that some version in the project's history held.
A key among them is public to anyone with a copy of the history, however random it
looks, so :func:`app.secret_strength.weak_secret_reason` refuses it.
``tests/test_published_secrets.py`` walks the history and names any digest missing here.
"""

PUBLISHED_DIGESTS: frozenset[str] = frozenset({
    "1039d0b060ecb3e5317422b5664a7be544be8be92cdf5d3710e379bcccff7a99",
    "8c25355fb843ec835bb14344cc365a5309bab83cec4702088145fffe8f9866da",
    "95bbe02a5abc7fbf2bb09263b36333e282e98d51095a158860cea81779282f69",
    "9cadaa86c25357ee89b24074c854600b18db4c4ed1b230ce3a8bc60af54822fb",
    "c9bbe26431da40e117c3bba35c3586ef6375cf74e1f3ddee62e6db606bceea25",
})
