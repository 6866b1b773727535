-- name: SetOrganizationUID :exec
UPDATE organizations SET uid_type = sqlc.arg(uid_type)::text, uid = sqlc.arg(uid)::text WHERE organization_id = $1;
