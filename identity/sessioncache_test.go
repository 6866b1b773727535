package identity

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestSessionCache(t *testing.T) {
	c := newCache[[32]byte, User]()
	now := time.Now()
	key, ok := sessionKey("locale=es; " + SessionCookie + "=tok-a; csrf=x")
	if !ok {
		t.Fatal("no key for a header with the session cookie")
	}
	if same, _ := sessionKey(SessionCookie + "=tok-a"); same != key {
		t.Fatal("the key depends on the other cookies")
	}
	if _, ok := sessionKey("locale=es"); ok {
		t.Fatal("a key for a header without the session cookie")
	}
	alice, bob := User{ID: uuid.New()}, User{ID: uuid.New()}
	bobKey, _ := sessionKey(SessionCookie + "=tok-b")

	_, gen, hit := c.get(key, now)
	if hit {
		t.Fatal("hit in an empty cache")
	}
	c.put(key, alice, now.Add(time.Second), gen)
	if u, _, hit := c.get(key, now); !hit || u.ID != alice.ID {
		t.Fatalf("stored session not found: %v %v", hit, u.ID)
	}
	if _, _, hit := c.get(key, now.Add(time.Second)); hit {
		t.Fatal("an expired session still answers")
	}

	// A lookup that overlapped a forget (a sign-out while Kratos answered) stores nothing.
	_, gen, _ = c.get(key, now)
	c.forget(func([32]byte, User) bool { return false })
	c.put(key, alice, now.Add(time.Second), gen)
	if _, _, hit := c.get(key, now); hit {
		t.Fatal("stored a session read before a forget")
	}

	// Forgetting an identity drops its sessions, not another's.
	_, gen, _ = c.get(key, now)
	c.put(key, alice, now.Add(time.Minute), gen)
	c.put(bobKey, bob, now.Add(time.Minute), gen)
	c.forget(func(_ [32]byte, u User) bool { return u.ID == alice.ID })
	if _, _, hit := c.get(key, now); hit {
		t.Fatal("a forgotten identity's session still answers")
	}
	if _, _, hit := c.get(bobKey, now); !hit {
		t.Fatal("another identity's session was dropped")
	}
}
