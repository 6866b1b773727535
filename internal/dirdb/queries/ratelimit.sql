-- name: HitRateLimit :one
-- One hit in a fixed window of window_seconds: a new or expired row starts a new window.
INSERT INTO rate_limits AS r (key, hits, reset_at)
VALUES ($1, 1, now() + make_interval(secs => sqlc.arg(window_seconds)::float8))
ON CONFLICT (key) DO UPDATE SET
    hits       = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at   = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END,
    updated_at = now()
RETURNING hits, extract(epoch FROM r.reset_at - now())::float8 AS seconds_left;

-- name: FailRateLimit :one
-- One more failure; the count is forgotten forget_seconds after the last one.
INSERT INTO rate_limits AS r (key, hits, reset_at)
VALUES ($1, 1, now() + make_interval(secs => sqlc.arg(forget_seconds)::float8))
ON CONFLICT (key) DO UPDATE SET
    hits       = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at   = EXCLUDED.reset_at,
    updated_at = now()
RETURNING hits;

-- name: RateLimitFailures :one
-- The failures still remembered and the seconds since the last one.
SELECT hits, extract(epoch FROM now() - updated_at)::float8 AS seconds_since
FROM rate_limits WHERE key = $1 AND reset_at > now();

-- name: ForgetRateLimit :exec
DELETE FROM rate_limits WHERE key = $1;

-- name: SweepRateLimits :exec
DELETE FROM rate_limits WHERE reset_at < now();
