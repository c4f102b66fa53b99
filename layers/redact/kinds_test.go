package redact

import (
	"strings"
	"testing"
)

// TestDeveloperSecretKinds: credentials as developers actually type them,
// in commands, headers, URLs, config and prose. Each case's secret must
// not survive in any part (at least 6 characters of it).
func TestDeveloperSecretKinds(t *testing.T) {
	cases := []struct{ name, text, secret string }{
		{"azure sas", `az storage blob upload --sas-token "sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-01T00:00:00Z&sig=Qm9vbXRvd24lMkZzZWNyZXQlMkJrZXk9PQ%3D%3D"`, "Qm9vbXRvd24lMkZzZWNyZXQlMkJrZXk9PQ"},
		{"azure sas url", `https://acct.blob.core.windows.net/c/f.txt?sp=r&st=2026-01-01&se=2026-02-01&spr=https&sv=2022-11-02&sr=b&sig=aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f%3D`, "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f"},
		{"azure connection string", `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=bWFkZXVwa2V5Zm9ydGVzdGluZ29ubHkxMjM0NTY3ODkwYWJjZGVmZ2hpams=;EndpointSuffix=core.windows.net`, "bWFkZXVwa2V5Zm9ydGVzdGluZ29ubHkx"},
		{"twilio basic", `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json -u AC0123456789abcdef0123456789abcdef:9f8e7d6c5b4a39281706f5e4d3c2b1a0`, "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"mailgun", `curl -s --user 'api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0' https://api.mailgun.net/v3/samples.mailgun.org/messages`, "3ax6xnjp29jd6fds4gc373sgvjxteol0"},
		{"mailgun bare", `MAILGUN = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"`, "3ax6xnjp29jd6fds4gc373sgvjxteol0"},
		{"curl -u", `curl -u admin:S3cr3t-Pa55w0rd https://ci.example.com/api/json`, "S3cr3t-Pa55w0rd"},
		{"curl --user=", `curl --user=deploy:hunter2hunter2 https://nexus.local/repo`, "hunter2hunter2"},
		{"wget --password", `wget --user=bob --password hunter2xyz https://files.local/x.tgz`, "hunter2xyz"},
		{"authorization token", `curl -H "Authorization: Token 0123456789abcdef0123456789abcdef01234567" https://api.example.com`, "0123456789abcdef0123456789abcdef01234567"},
		{"authorization any scheme", `Authorization: Splunk 5f2c9a4e-1b7d-4c3e-9f8a-6d5e4c3b2a19`, "5f2c9a4e-1b7d-4c3e-9f8a"},
		{"authorization bare", `-H 'Authorization: 8f14e45fceea167a5a36dedd4bea2543'`, "8f14e45fceea167a5a36dedd4bea2543"},
		{"discord webhook", `curl -X POST https://discord.com/api/webhooks/1234567890123456789/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfGhIjKlMnOpQrStUvWx`, "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
		{"discordapp webhook", `https://discordapp.com/api/webhooks/987654321098765432/zYxWvUtSrQpOnMlKjIhGfEdCbA9876543210`, "zYxWvUtSrQpOnMlKjIhGfEdCbA9876543210"},
		{"teams webhook", `https://contoso.webhook.office.com/webhookb2/1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d/3e4f5a6b-7c8d-9e0f-1a2b-3c4d5e6f7a8b`, "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d"},
		{"telegram bot url", `curl https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage`, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"},
		{"telegram bot token", `TELEGRAM=110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw python bot.py`, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"},
		{"vault token", `export VAULT_ADDR=https://vault.local; vault login hvs.CAESIJ4a9ZlqNoQ8Xn3yE0fKfLm2Z8wT5pR7uY1iO3aS6dF9GhUyVnB`, "CAESIJ4a9ZlqNoQ8Xn3yE0fKfLm2Z8w"},
		{"vault token output", `token                hvs.CAESIJ4a9ZlqNoQ8Xn3yE0fKfLm2Z8wT5pR7uY1iO3aS6dF9GhUyVnB`, "CAESIJ4a9ZlqNoQ8Xn3yE0fKfLm2Z8w"},
		{"age key", `AGE-SECRET-KEY-1QQPQ5R2CKZ9YF8S7HN2M4C0D6E3L5XWJ8V0A9T2K4R7Y6U5P3Z8Q1W2E3R4T5Y`, "1QQPQ5R2CKZ9YF8S7HN2M4C0D6E3L5XWJ8V"},
		{"mysql -p", `mysql -h db.local -u root -pS3cretPass! shop < dump.sql`, "S3cretPass!"},
		{"mysqldump -p", `mysqldump -uroot -pXk29sLm4 --all-databases > all.sql`, "Xk29sLm4"},
		{"sshpass", `sshpass -p 'Tr0ub4dor&3' ssh deploy@10.0.0.5`, "Tr0ub4dor&3"},
		{"cookie header", `curl -H "Cookie: theme=dark; session_id=8f14e45fceea167a5a36dedd4bea2543; csrftoken=Zm9vYmFyYmF6cXV4MTIzNDU2" https://app.local`, "Zm9vYmFyYmF6cXV4MTIzNDU2"},
		{"cookie header first", `Cookie: sid=s%3Ab5f2a9c4e1d7.Xy9zQk3LmN8pR2tV5wY7aB1cD4eF6gH8iJ0kL`, "b5f2a9c4e1d7"},
		{"assignment with semicolon", `DB_PASSWORD=a8Kd2;Lx9#pQ`, "Lx9#pQ"},
		{"url-encoded tail", `curl "https://api.example.com/?key=sk-ant-api03-AbCdEfGhIjKlMnOpQrSt%2DuVwXyZ0123456789abcdef"`, "uVwXyZ0123456789abcdef"},
		{"base64 wrapped key", `echo Z2hwX1pxOFJ0WTJtVzRuQjZ2QzF4SzlwTDNzRDdmRzVoSjBhUXdFcg== | base64 -d > ~/.token`, "Z2hwX1pxOFJ0WTJtVzRuQjZ2QzF4"},
		{"k8s secret base64", "data:\n  password: UzNjcjN0LVBhNTV3MHJkLTIwMjY=\n", "UzNjcjN0LVBhNTV3MHJkLTIwMjY"},
		{"token over a line break", "export GITHUB_TOKEN=ghp_Zq8RtY2mW4nB6vC1xK9p\\\nL3sD7fG5hJ0aQwEr", "Zq8RtY2mW4nB6vC1xK9p"},
		{"bare token over a line break", "the token is ghp_Zq8RtY2mW4nB6vC1xK9p\nL3sD7fG5hJ0aQwEr, rotate it", "Zq8RtY2mW4nB6vC1xK9p"},
		{"password in prose", `the prod password is Hunter2-staging, do not share it`, "Hunter2-staging"},
		{"password in prose colon", `My password: Tr0ub4dor&3 (for the VPN)`, "Tr0ub4dor&3"},
		{"heroku token value", `HEROKU_API_KEY=7d1a7a35-9f2b-4c3e-8d6a-2b5e4f3c1a09 heroku run bash`, "7d1a7a35-9f2b-4c3e"},
		{"npm token in npmrc", `//registry.npmjs.org/:_authToken=npm_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8`, "A1b2C3d4E5f6G7h8I9j0K1l2"},
		{"gcloud token", `ya29.a0AfB_byC3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5`, "a0AfB_byC3dE5fG7hJ9kL1"},
		{"aws secret in config get", `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, "wJalrXUtnFEMI/K7MDENG"},
		{"docker login", `docker login -u ci -p dckr_pat_2b3c4d5e6f7g8h9i0j1k2l3m4n5o registry.local`, "dckr_pat_2b3c4d5e6f7g8h9i0j1k2l3m4n5o"},
		{"redis-cli -a", `redis-cli -h cache.local -a Sup3rS3cret! ping`, "Sup3rS3cret!"},
		{"psql connection", `psql "postgresql://app:Xk29sLm4Pq@db.local:5432/shop"`, "Xk29sLm4Pq"},
	}
	for _, c := range cases {
		got := String(c.text)
		for i := 0; i+6 <= len(c.secret); i++ {
			if strings.Contains(got, c.secret[i:i+6]) {
				t.Errorf("%s: part %q of the secret survived:\n  in:  %s\n  out: %s", c.name, c.secret[i:i+6], c.text, got)
				break
			}
		}
	}
}

// TestDeveloperTextStays: ordinary developer text near those kinds keeps
// every word.
func TestDeveloperTextStays(t *testing.T) {
	for _, s := range []string{
		`mkdir -p build/out && cp -pr assets build/`,
		`git log -p --stat`,
		`curl -u "$USER:$TOKEN" https://api.example.com`,
		`curl -u admin https://ci.example.com (it prompts for the password)`,
		`mysql -p shop  # asks for the password`,
		`the password is required`,
		`the password was wrong, reset it`,
		`Authorization: Bearer $TOKEN`,
		`Cookie: theme=dark`,
		`see https://discord.com/channels/123/456 for the thread`,
		`sig=0 means unsigned`,
		`key-value store`,
		`a token is valid for one hour`,
		`ssh -p 2222 deploy@host`,
		`pytest -p no:cacheprovider`,
		`docker run -p 8080:80 nginx`,
	} {
		if got := String(s); got != s {
			t.Errorf("changed ordinary text:\n  in:  %s\n  out: %s", s, got)
		}
	}
}
