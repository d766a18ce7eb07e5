package proxy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestCAIsCreatedOnceWithAPrivateKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	ca, err := LoadOrCreateCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(ca.KeyPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %04o, want 0600", st.Mode().Perm())
	}
	pub, ok := ca.Cert.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		t.Fatalf("CA key is %T, want ECDSA P-256", ca.Cert.PublicKey)
	}
	if !ca.Cert.IsCA || ca.Cert.Subject.CommonName != "llmtck local interception CA" {
		t.Fatalf("CA certificate: IsCA %v, subject %q", ca.Cert.IsCA, ca.Cert.Subject)
	}
	again, err := LoadOrCreateCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cert.Equal(ca.Cert) {
		t.Fatal("a second run made a new CA instead of loading the first")
	}
	if !strings.Contains(ca.TrustHelp(), ca.CertPath) {
		t.Fatalf("TrustHelp does not name %s", ca.CertPath)
	}
}

func TestCARefusesAKeyOthersCanRead(t *testing.T) {
	dir := t.TempDir()
	ca, err := LoadOrCreateCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ca.KeyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadOrCreateCA(dir)
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("err = %v, want a refusal naming chmod 600", err)
	}
}

func TestCARefusesHalfACA(t *testing.T) {
	dir := t.TempDir()
	ca, err := LoadOrCreateCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(ca.KeyPath)
	if _, err := LoadOrCreateCA(dir); err == nil || !strings.Contains(err.Error(), "key is missing") {
		t.Fatalf("err = %v, want the missing key named", err)
	}
	// And garbage where the certificate should be.
	dir2 := t.TempDir()
	ca2, _ := LoadOrCreateCA(dir2)
	os.WriteFile(ca2.CertPath, []byte("not pem"), 0o644)
	if _, err := LoadOrCreateCA(dir2); err == nil || !strings.Contains(err.Error(), ca2.CertPath) {
		t.Fatalf("err = %v, want the certificate file named", err)
	}
}

func TestLeafIsSignedCachedAndIssuedOnce(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	certs := make([]*x509.Certificate, 16)
	for i := range certs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := ca.Leaf("api.anthropic.com:443")
			if err != nil {
				t.Error(err)
				return
			}
			certs[i] = c.Leaf
		}()
	}
	wg.Wait()
	for _, c := range certs[1:] {
		if c != certs[0] {
			t.Fatal("concurrent first connections got different certificates")
		}
	}
	leaf := certs[0]
	if _, err := leaf.Verify(x509.VerifyOptions{DNSName: "api.anthropic.com", Roots: ca.Pool()}); err != nil {
		t.Fatalf("leaf does not verify against the CA: %v", err)
	}
	if _, ok := leaf.PublicKey.(*ecdsa.PublicKey); !ok {
		t.Fatalf("leaf key is %T, want ECDSA", leaf.PublicKey)
	}
	ip, err := ca.Leaf("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Leaf.Verify(x509.VerifyOptions{DNSName: "127.0.0.1", Roots: ca.Pool()}); err != nil {
		t.Fatalf("IP leaf does not verify: %v", err)
	}
}
