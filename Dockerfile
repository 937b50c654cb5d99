# holdem-server: one image for the server; configure it with environment variables.
FROM python:3.11-slim AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/holdem

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p app && touch app/__init__.py \
    && pip install . \
    && pip uninstall -y holdem-server

COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY alembic.ini ./
RUN pip install --no-deps . \
    && useradd --system --home /srv/holdem holdem \
    && mkdir -p /srv/holdem/var && chown holdem /srv/holdem/var

USER holdem
EXPOSE 8000
VOLUME ["/srv/holdem/var"]
HEALTHCHECK --interval=15s --timeout=3s CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)" || exit 1
CMD ["sh", "-c", "holdem migrate && exec holdem serve --host 0.0.0.0 --port 8000"]
