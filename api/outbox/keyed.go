package outbox

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/config"
	"github.com/aporta/aporta/identity"
)

// Users resolves identities to their e-mail addresses (identity.Kratos).
type Users interface {
	Users(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]identity.User, error)
}

// Sender is the outbox as the Mailer uses it.
type Sender interface {
	SendVia(ctx context.Context, db Conn, m Message) (Message, error)
}

// Mailer is how workflows e-mail: each message reaches the outbox once per key, however often a
// retried activity asks, and organisation messages go to its active administrators.
type Mailer struct {
	Outbox    Sender
	Directory *pgxpool.Pool
	Users     Users
}

// SendOnce queues m unless a message with key was queued before. A delivery error leaves the message
// in the outbox with its error; it is not queued again. Callers racing with one key (a donor's
// double submit, say) queue it once: the key is locked for the check, the send and the record.
func (m Mailer) SendOnce(ctx context.Context, key string, msg Message) error {
	return pgx.BeginFunc(ctx, m.Directory, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("LockKeyedEmail"), key); err != nil {
			return err
		}
		var sent bool
		if err := tx.QueryRow(ctx, queries.Get("KeyedEmailSent"), key).Scan(&sent); err != nil {
			return err
		}
		if sent {
			return nil
		}
		// Through the same transaction: a second pool connection per caller could run the pool dry
		// while callers wait for the key.
		kept, err := m.Outbox.SendVia(ctx, tx, msg)
		if err != nil && kept.ID == 0 {
			return fmt.Errorf("outbox: %w", err)
		}
		_, err = tx.Exec(ctx, queries.Get("RecordKeyedEmail"), key, kept.ID)
		return err
	})
}

// ToAdministrators e-mails every active administrator of the organisation, keyed per recipient.
func (m Mailer) ToAdministrators(ctx context.Context, orgID uuid.UUID, key string, msg Message) error {
	rows, err := m.Directory.Query(ctx, queries.Get("OrganizationAdministrators"), orgID)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
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
