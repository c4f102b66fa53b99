package scrub

import "testing"

func TestText(t *testing.T) {
	root := "/work/my project"
	for in, want := range map[string]string{
		"go test /work/my project/api/...":                             "go test api/...",
		"cd /work/my project && ls":                                    "cd . && ls",
		"cat /home/alice/.aws/credentials":                             "cat ~/.aws/credentials",
		"ls /Users/bob":                                                "ls ~",
		"vim /root/.bashrc":                                            "vim ~/.bashrc",
		"ls /tmp/x /etc/hosts":                                         "ls /tmp/x /etc/hosts",
		"cp /work/my project/a.go /work/my projectother/x.go":          "cp a.go /work/my projectother/x.go",
		"diff -r /work/my project /work/my project-old/api.go":         "diff -r . /work/my project-old/api.go",
		`open("/work/my project")`:                                     `open(".")`,
		"/x/work/my project/y":                                         "/x/work/my project/y",
		"export GITHUB_TOKEN=ghp_Zq8RtY2mW4nB6vC1xK9pL3sD7fG5hJ0aQwEr": "export GITHUB_TOKEN=[REDACTED:github-token]",
	} {
		if got := Text(in, root); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	root := "/work/p"
	for in, want := range map[string]string{
		"/work/p/api/handler.go": "api/handler.go",
		"/work/p":                ".",
		"/work/pother/x.go":      "/work/pother/x.go",
		"/home/alice/notes.md":   "~/notes.md",
		"relative/file.go":       "relative/file.go",
	} {
		if got := Path(in, root); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}
