# holdem-server: one image for the server; configure it with environment variables.

# The browser client's Socket.IO library comes from npm (package.json).
FROM node:20-slim AS web-vendor
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/holdem

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p app && touch app/__init__.py \
    && pip install . \
    && pip uninstall -y holdem-server \
    && rm -rf app

# The server runs from this folder: templates/, migrations/ and app/web/static/
# are read beside the code, so the package is installed in editable mode.
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
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
CMD ["sh", "-c", "holdem migrate && exec holdem serve --host 0.0.0.0 --port 8000"]
