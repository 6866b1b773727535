// Package secrets encrypts what Aporta holds for organisations (their gateway tokens) at rest, by
// envelope encryption: each value gets its own random data key (AES-256-GCM), and only that data
// key goes to the key-encryption key, a gocloud.dev/secrets keeper (a KMS in production through
// APORTA_SECRETS_URL; in dev and test a local key derived from APORTA_SECRET with HKDF). A sealed
// value names the key that wrapped it, so the key can change without downtime: the new one seals,
// the old ones still open, and Rewrap moves each value over (connections.RotateKeys).
package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"gocloud.dev/secrets"
	"gocloud.dev/secrets/localsecrets" // base64key://, and the key derived from APORTA_SECRET
)

// Sealed is an encrypted value and the id of the key that wraps its data key.
type Sealed struct {
	KeyID string
	Blob  []byte // version, wrapped data key, nonce, ciphertext
}

// ErrUnknownKey is a value sealed by a key this process was not given.
var ErrUnknownKey = errors.New("secrets: sealed by an unknown key")

const blobVersion = 1

// Box seals with its current key and opens with any key it holds.
type Box struct {
	current string
	keepers map[string]*secrets.Keeper
}

// Open builds the box. url is the key-encryption key's gocloud.dev/secrets URL; empty means the
// local key derived from appSecret. previous are the URLs of keys values may still be sealed by
// (during a rotation); "" among them is the local key.
func Open(ctx context.Context, appSecret []byte, url string, previous ...string) (*Box, error) {
	b := &Box{keepers: map[string]*secrets.Keeper{}}
	urls := append([]string{url}, previous...)
	if url != "" && len(appSecret) >= 32 {
		// Moving from the derived key to a KMS needs no listing: the derived key still opens.
		urls = append(urls, "")
	}
	for i, u := range urls {
		id, k, err := keeper(ctx, appSecret, u)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			b.current = id
		}
		b.keepers[id] = k
	}
	return b, nil
}

// keeper opens one key and names it: a local key by a hash of the key, a KMS key by a hash of its URL.
func keeper(ctx context.Context, appSecret []byte, url string) (string, *secrets.Keeper, error) {
	if url != "" {
		k, err := secrets.OpenKeeper(ctx, url)
		if err != nil {
			return "", nil, fmt.Errorf("secrets: open keeper: %w", err)
		}
		return "kek-" + shortHash([]byte(url)), k, nil
	}
	if len(appSecret) < 32 {
		return "", nil, errors.New("secrets: the application secret is too short to derive a key from")
	}
	key, err := hkdf.Key(sha256.New, appSecret, nil, "aporta secrets key-encryption key v1", 32)
	if err != nil {
		return "", nil, err
	}
	var k [32]byte
	copy(k[:], key)
	// The same key named as a base64key:// URL, so it can be listed among previous keys later.
	return "kek-" + shortHash([]byte("base64key://"+base64.URLEncoding.EncodeToString(key))), localsecrets.NewKeeper(k), nil
}

func shortHash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

// LocalKeyURL is the base64key:// URL of the key derived from appSecret: what to list among the
// previous keys when moving off it (to a KMS, or to a new APORTA_SECRET).
func LocalKeyURL(appSecret []byte) (string, error) {
	key, err := hkdf.Key(sha256.New, appSecret, nil, "aporta secrets key-encryption key v1", 32)
	if err != nil {
		return "", err
	}
	return "base64key://" + base64.URLEncoding.EncodeToString(key), nil
}

// KeyID is the id of the key new values are sealed by.
func (b *Box) KeyID() string { return b.current }

// Seal encrypts plaintext. aad binds the value to where it is stored (a row's identity): the same
// blob moved elsewhere does not open.
func (b *Box) Seal(ctx context.Context, plaintext, aad []byte) (Sealed, error) {
	dek := make([]byte, 32)
	if _, err := rand.Read(dek); err != nil {
		return Sealed{}, err
	}
	wrapped, err := b.keepers[b.current].Encrypt(ctx, dek)
	if err != nil {
		return Sealed{}, fmt.Errorf("secrets: wrap: %w", err)
	}
	gcm, err := newGCM(dek)
	if err != nil {
		return Sealed{}, err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return Sealed{}, err
	}
	blob := binary.BigEndian.AppendUint16([]byte{blobVersion}, uint16(len(wrapped)))
	blob = append(blob, wrapped...)
	blob = append(blob, nonce...)
	return Sealed{KeyID: b.current, Blob: gcm.Seal(blob, nonce, plaintext, aad)}, nil
}

// Open decrypts a sealed value with the aad it was sealed with.
func (b *Box) Open(ctx context.Context, s Sealed, aad []byte) ([]byte, error) {
	dek, rest, err := b.unwrap(ctx, s)
	if err != nil {
		return nil, err
	}
	gcm, err := newGCM(dek)
	if err != nil {
		return nil, err
	}
	if len(rest) < gcm.NonceSize() {
		return nil, errors.New("secrets: truncated value")
	}
	out, err := gcm.Open(nil, rest[:gcm.NonceSize()], rest[gcm.NonceSize():], aad)
	if err != nil {
		return nil, errors.New("secrets: value does not open (tampered, or another row's)")
	}
	return out, nil
}

// Rewrap re-wraps a value's data key with the current key; the encrypted payload is unchanged.
// A value already under the current key comes back as it is.
func (b *Box) Rewrap(ctx context.Context, s Sealed) (Sealed, error) {
	if s.KeyID == b.current {
		return s, nil
	}
	dek, rest, err := b.unwrap(ctx, s)
	if err != nil {
		return Sealed{}, err
	}
	wrapped, err := b.keepers[b.current].Encrypt(ctx, dek)
	if err != nil {
		return Sealed{}, fmt.Errorf("secrets: wrap: %w", err)
	}
	blob := binary.BigEndian.AppendUint16([]byte{blobVersion}, uint16(len(wrapped)))
	return Sealed{KeyID: b.current, Blob: append(append(blob, wrapped...), rest...)}, nil
}

// RewrapEach re-wraps the sealed value of every row still under an older key and saves it with
// save, which answers how many rows it changed (0 when someone changed the row meanwhile: then it was
// sealed by the current key already); it answers how many rows moved. A key rotation's loop, shared by
// every store that holds sealed values.
func RewrapEach[Row any](ctx context.Context, b *Box, rows []Row, sealed func(Row) Sealed, save func(Row, Sealed) (int64, error)) (int, error) {
	moved := 0
	for _, r := range rows {
		old := sealed(r)
		if old.KeyID == b.current {
			continue
		}
		s, err := b.Rewrap(ctx, old)
		if err != nil {
			return moved, err
		}
		n, err := save(r, s)
		if err != nil {
			return moved, err
		}
		moved += int(n)
	}
	return moved, nil
}

// unwrap returns the data key and what follows it (nonce and ciphertext).
func (b *Box) unwrap(ctx context.Context, s Sealed) (dek, rest []byte, err error) {
	k, ok := b.keepers[s.KeyID]
	if !ok {
		return nil, nil, fmt.Errorf("%w %q", ErrUnknownKey, s.KeyID)
	}
	if len(s.Blob) < 3 || s.Blob[0] != blobVersion {
		return nil, nil, errors.New("secrets: not a sealed value")
	}
	n := int(binary.BigEndian.Uint16(s.Blob[1:3]))
	if len(s.Blob) < 3+n {
		return nil, nil, errors.New("secrets: truncated value")
	}
	dek, err = k.Decrypt(ctx, s.Blob[3:3+n])
	if err != nil {
		return nil, nil, fmt.Errorf("secrets: unwrap: %w", err)
	}
	return dek, s.Blob[3+n:], nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
