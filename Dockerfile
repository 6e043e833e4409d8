# Koers as an image: dependencies installed once, at build (npm ci), on a supported Node LTS.
# The process is the service itself (exec form, no shell), so `docker stop` reaches it with
# SIGTERM and it shuts down cleanly; docker-compose.yml also runs it behind an init.
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Runtime dependencies only (tsx runs the TypeScript; no build step).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY db ./db
COPY migrations ./migrations
COPY docs ./docs
USER node
# Inside the container Koers listens on every interface; docker-compose.yml publishes the port
# on 127.0.0.1 of the host only.
ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
# The same flags as `npm start` (package.json); test/docker.test.ts keeps the two equal.
CMD ["node", "--max-semi-space-size=4", "--optimize-for-size", "--import", "tsx", "src/main.ts"]
