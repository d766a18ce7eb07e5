# A small image that runs llmtck: docker build -t llmtck . && docker run --rm -v "$PWD:/work" llmtck check cassettes/
FROM golang:1.26-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/llmtck ./cmd/llmtck

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/llmtck /usr/local/bin/llmtck
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/llmtck"]
