package outbox

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dirdb"
)

// Users resolves identities to their e-mail addresses (identity.Kratos).
type Users interface {
	Users(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]identity.User, error)
}

// Mailer is how workflows e-mail: each message reaches the outbox once per key, however often a
// retried activity asks, and organisation messages go to its active administrators.
type Mailer struct {
	Outbox    *Outbox
	Directory *pgxpool.Pool
	Users     Users
}

// SendOnce sends msg unless a message with key was recorded before (Outbox.SendOnce).
func (m Mailer) SendOnce(ctx context.Context, key string, msg Message) error {
	return m.Outbox.SendOnce(ctx, key, msg)
}

// ToAdministrators e-mails every active administrator of the organisation, keyed per recipient.
func (m Mailer) ToAdministrators(ctx context.Context, orgID uuid.UUID, key string, msg Message) error {
	ids, err := dirdb.Store(m.Directory).ActiveAdministratorIDs(ctx, orgID)
	if err != nil || len(ids) == 0 {
		return err
	}
	users, err := m.Users.Users(ctx, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		u, ok := users[id]
		if !ok || u.Email == "" {
			continue
		}
		msg.Recipient = u.Email
		if err := m.SendOnce(ctx, key+"/"+u.Email, msg); err != nil {
			return err
		}
	}
	return nil
}

// NewMailer builds the Mailer from the configuration: this outbox, and Kratos for addresses.
func NewMailer(cfg *config.Config, directory *pgxpool.Pool) Mailer {
	return Mailer{
		Outbox:    New(directory, cfg),
		Directory: directory,
		Users:     identity.NewKratos(cfg.KratosAdmin, &http.Client{Timeout: 10 * time.Second}),
	}
}
