-- name: SetOrganizationDirectoryStatus :exec
UPDATE organizations SET status = $2, updated_at = now() WHERE id = $1;
