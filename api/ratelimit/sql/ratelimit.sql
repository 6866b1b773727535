-- name: Hit
-- One hit in a fixed window of $2 seconds: a new or expired row starts a new window.
INSERT INTO rate_limits AS r (key, hits, reset_at)
VALUES ($1, 1, now() + make_interval(secs => $2))
ON CONFLICT (key) DO UPDATE SET
    hits       = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at   = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END,
    updated_at = now()
RETURNING hits, extract(epoch FROM r.reset_at - now())::float8;

-- name: Fail
-- One more failure; the count is forgotten $2 seconds after the last one.
INSERT INTO rate_limits AS r (key, hits, reset_at)
VALUES ($1, 1, now() + make_interval(secs => $2))
ON CONFLICT (key) DO UPDATE SET
    hits       = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
    reset_at   = EXCLUDED.reset_at,
    updated_at = now()
RETURNING hits;

-- name: Failures
-- The failures still remembered and the seconds since the last one.
SELECT hits, extract(epoch FROM now() - updated_at)::float8
FROM rate_limits WHERE key = $1 AND reset_at > now();

-- name: Forget
DELETE FROM rate_limits WHERE key = $1;

-- name: Sweep
DELETE FROM rate_limits WHERE reset_at < now();
