# holdem-server: one image for the server; configure it with environment variables.
# Base images are pinned by version; Python packages come from the hashed lock file
# requirements/base.txt (`make lock`), the same one `make run` installs.

# The browser client's Socket.IO library comes from npm (package.json).
FROM node:20.18.1-bookworm-slim AS web-vendor
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM python:3.11.11-slim-bookworm

# Production unless told otherwise: the server then refuses to start without a real
# SECRET_KEY, logs JSON lines and marks cookies Secure.
ENV ENV=production \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/holdem

# PyICU (display names' confusable skeletons) builds against the system's ICU.
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ pkg-config libicu-dev \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so code changes do not reinstall them.
COPY requirements/base.txt ./requirements/base.txt
RUN pip install --require-hashes -r requirements/base.txt

# The server runs from this folder: templates/, migrations/ and app/web/static/
# are read beside the code, so the package is installed in editable mode.
COPY pyproject.toml README.md alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY docs/PRIVACY.md ./docs/PRIVACY.md
COPY app ./app
COPY --from=web-vendor /build/node_modules/socket.io-client/dist/socket.io.min.js \
     ./app/web/static/vendor/socket.io.min.js
RUN pip install --no-deps -e . \
    && useradd --system --home /srv/holdem holdem \
    && mkdir -p /srv/holdem/var && chown holdem /srv/holdem/var

USER holdem
EXPOSE 8000
VOLUME ["/srv/holdem/var"]
HEALTHCHECK --interval=15s --timeout=3s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)"
# Production never migrates on serve: migrate first, waiting for a database that is
# still starting (a container beside this one).
CMD ["sh", "-c", "holdem migrate --wait 60 && exec holdem serve --host 0.0.0.0 --port 8000"]
