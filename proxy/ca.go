package proxy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// CA file names inside the CA folder.
const (
	CACertFile = "llmtck-ca.pem"
	CAKeyFile  = "llmtck-ca-key.pem"
)

// CA is the certificate authority that signs the proxy's TLS interception
// certificates. It is generated on first use and kept on disk, so the user
// trusts it once.
type CA struct {
	CertPath string
	KeyPath  string
	Cert     *x509.Certificate
	key      *ecdsa.PrivateKey

	mu     sync.Mutex
	leaves map[string]*leaf
}

// leaf is one host's certificate; ready is closed once it is issued, so
// concurrent first connections to a host sign it only once.
type leaf struct {
	ready chan struct{}
	cert  *tls.Certificate
	err   error
}

// DefaultCADir is the user's config folder plus "llmtck".
func DefaultCADir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no default CA folder (%w); pass --ca-dir", err)
	}
	return filepath.Join(dir, "llmtck"), nil
}

// LoadOrCreateCA reads the CA from dir, or creates one there: an ECDSA P-256
// key in a file of mode 0600 and a self-signed certificate valid for ten
// years. It refuses a key file that others can read.
func LoadOrCreateCA(dir string) (*CA, error) {
	ca := &CA{
		CertPath: filepath.Join(dir, CACertFile),
		KeyPath:  filepath.Join(dir, CAKeyFile),
		leaves:   map[string]*leaf{},
	}
	_, errCert := os.Stat(ca.CertPath)
	_, errKey := os.Stat(ca.KeyPath)
	switch {
	case errors.Is(errCert, fs.ErrNotExist) && errors.Is(errKey, fs.ErrNotExist):
		if err := ca.create(dir); err != nil {
			return nil, err
		}
		return ca, nil
	case errors.Is(errKey, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: the CA key is missing although its certificate exists; remove %s to create a new CA", ca.KeyPath, ca.CertPath)
	case errors.Is(errCert, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: the CA certificate is missing although its key exists; remove %s to create a new CA", ca.CertPath, ca.KeyPath)
	}
	if err := ca.load(); err != nil {
		return nil, err
	}
	return ca, nil
}

func (ca *CA) create(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("CA folder: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "llmtck local interception CA", Organization: []string{"llmtck"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
		SubjectKeyId:          keyID(&key.PublicKey),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	// Key first, created 0600 from the start so it is never readable by others.
	if err := writeNew(ca.KeyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	if err := writeNew(ca.CertPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return err
	}
	ca.Cert, err = x509.ParseCertificate(der)
	ca.key = key
	return err
}

// writeNew creates path with mode perm, failing if it exists, and syncs it.
func writeNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (ca *CA) load() error {
	st, err := os.Stat(ca.KeyPath)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s: mode %04o lets others read the CA key; run chmod 600 %s", ca.KeyPath, st.Mode().Perm(), ca.KeyPath)
	}
	certPEM, err := os.ReadFile(ca.CertPath)
	if err != nil {
		return err
	}
	keyPEM, err := os.ReadFile(ca.KeyPath)
	if err != nil {
		return err
	}
	block, _ := pem.Decode(certPEM)
	if block == nil || block.Type != "CERTIFICATE" {
		return fmt.Errorf("%s: expected a PEM CERTIFICATE block", ca.CertPath)
	}
	if ca.Cert, err = x509.ParseCertificate(block.Bytes); err != nil {
		return fmt.Errorf("%s: %w", ca.CertPath, err)
	}
	block, _ = pem.Decode(keyPEM)
	if block == nil || block.Type != "PRIVATE KEY" {
		return fmt.Errorf("%s: expected a PEM PRIVATE KEY block", ca.KeyPath)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return fmt.Errorf("%s: %w", ca.KeyPath, err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok || !key.PublicKey.Equal(ca.Cert.PublicKey) {
		return fmt.Errorf("%s: the key does not belong to the certificate %s", ca.KeyPath, ca.CertPath)
	}
	if !ca.Cert.IsCA {
		return fmt.Errorf("%s: not a CA certificate", ca.CertPath)
	}
	if time.Now().After(ca.Cert.NotAfter) {
		return fmt.Errorf("%s: the CA expired on %s; remove both CA files to create a new one", ca.CertPath, ca.Cert.NotAfter.Format(time.DateOnly))
	}
	ca.key = key
	return nil
}

// Pool returns a certificate pool that trusts only this CA, for clients.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// Leaf returns a certificate for host (a DNS name or an IP address) signed
// by the CA. Certificates are cached per host and renewed a day before they
// expire.
func (ca *CA) Leaf(host string) (*tls.Certificate, error) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	ca.mu.Lock()
	l := ca.leaves[host]
	if l != nil {
		select {
		case <-l.ready:
			if l.err != nil || time.Now().Add(24*time.Hour).After(l.cert.Leaf.NotAfter) {
				l = nil // failed or about to expire: issue again
			}
		default: // being issued by another connection
		}
	}
	if l == nil {
		l = &leaf{ready: make(chan struct{})}
		ca.leaves[host] = l
		ca.mu.Unlock()
		l.cert, l.err = ca.issue(host)
		close(l.ready)
		return l.cert, l.err
	}
	ca.mu.Unlock()
	<-l.ready
	return l.cert, l.err
}

func (ca *CA) issue(host string) (*tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	// Well under the 398 days browsers and Apple platforms accept.
	notAfter := now.AddDate(0, 0, 90)
	if notAfter.After(ca.Cert.NotAfter) {
		notAfter = ca.Cert.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber:   serial(),
		Subject:        pkix.Name{CommonName: host, Organization: []string{"llmtck"}},
		NotBefore:      now.Add(-time.Hour),
		NotAfter:       notAfter,
		KeyUsage:       x509.KeyUsageDigitalSignature,
		ExtKeyUsage:    []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		AuthorityKeyId: ca.Cert.SubjectKeyId,
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, fmt.Errorf("signing a certificate for %s: %w", host, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der, ca.Cert.Raw}, PrivateKey: key, Leaf: cert}, nil
}

// TLSConfig returns the server configuration used to intercept host.
func (ca *CA) TLSConfig(host string) (*tls.Config, error) {
	cert, err := ca.Leaf(host)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{*cert},
		MinVersion:   tls.VersionTLS12,
		NextProtos:   []string{"http/1.1"},
	}, nil
}

// TrustHelp tells a person how to make clients trust the CA.
func (ca *CA) TrustHelp() string {
	return fmt.Sprintf(`%s

llmtck intercepts TLS to provider hosts with this CA. Trust it in the client
that goes through the proxy (HTTPS_PROXY=http://127.0.0.1:PORT):

  Node.js           NODE_EXTRA_CA_CERTS=%[1]s
  Python requests   REQUESTS_CA_BUNDLE=%[1]s  (httpx: SSL_CERT_FILE=%[1]s)
  curl              curl --cacert %[1]s …
  Go                add it to tls.Config.RootCAs of the client's transport
  Debian/Ubuntu     sudo cp %[1]s /usr/local/share/ca-certificates/llmtck.crt && sudo update-ca-certificates
  macOS             security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db %[1]s

The key (%s) never leaves this machine; delete both files to start over.
`, ca.CertPath, ca.KeyPath)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n
}

func keyID(pub *ecdsa.PublicKey) []byte {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	sum := sha256.Sum256(der)
	return sum[:20]
}
