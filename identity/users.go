package identity

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// Users reads several identities in one call (chunks of 100 ids); unknown ids are left out.
func (k *Kratos) Users(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]User, error) {
	out := make(map[uuid.UUID]User, len(ids))
	for start := 0; start < len(ids); start += 100 {
		end := min(start+100, len(ids))
		chunk := make([]string, 0, end-start)
		for _, id := range ids[start:end] {
			chunk = append(chunk, id.String())
		}
		list, _, err := k.admin.IdentityAPI.ListIdentities(ctx).Ids(chunk).PageSize(int64(len(chunk))).Execute()
		if err != nil {
			return nil, fmt.Errorf("kratos list identities: %w", err)
		}
		for i := range list {
			u, err := userOf(&list[i])
			if err != nil {
				continue
			}
			out[u.ID] = u
		}
	}
	return out, nil
}

// UsersOf reads the identities of rows in one call (Users), each row's identity named by id.
func UsersOf[T any](ctx context.Context, k *Kratos, rows []T, id func(T) uuid.UUID) (map[uuid.UUID]User, error) {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = id(r)
	}
	return k.Users(ctx, ids)
}

// User reads one identity; a zero User when Kratos does not know it, as Users leaves it out.
func (k *Kratos) User(ctx context.Context, id uuid.UUID) (User, error) {
	users, err := k.Users(ctx, []uuid.UUID{id})
	return users[id], err
}

// LastLogin is when the identity last authenticated (any of its sessions, active or not), or nil
// when it never signed in.
func (k *Kratos) LastLogin(ctx context.Context, id uuid.UUID) (*time.Time, error) {
	sessions, res, err := k.admin.IdentityAPI.ListIdentitySessions(ctx, id.String()).PageSize(250).Execute()
	if res != nil && res.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("kratos list sessions: %w", err)
	}
	var last *time.Time
	for _, s := range sessions {
		if s.AuthenticatedAt != nil && (last == nil || s.AuthenticatedAt.After(*last)) {
			t := *s.AuthenticatedAt
			last = &t
		}
	}
	return last, nil
}
