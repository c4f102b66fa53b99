package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// parse reads config.yaml through go.yaml.in/yaml/v3, strictly: a
// setting memkeep does not know is an error naming its line (a typo would
// otherwise leave a default in place in silence), and so is a value of
// the wrong type, named with the type expected. Everything YAML offers a
// settings file is read: comments, quoted and plain scalars, flow maps
// and lists, anchors, aliases and merge keys. A setting left empty or
// null keeps its default.
func parse(b []byte, c *Config) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	err := dec.Decode(c)
	if errors.Is(err, io.EOF) {
		return nil // comments only
	}
	if err != nil {
		if err = withoutDefinitions(b, err); err != nil {
			return explain(err)
		}
		// Only definitions were unknown: read the settings around them.
		if err := yaml.Unmarshal(b, c); err != nil {
			return explain(err)
		}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return fmt.Errorf("line %d: a second document; config.yaml holds one (remove the `---` line)", next.Line)
	}
	return nil
}

// withoutDefinitions drops from a decoding error the unknown top-level
// keys that only define an anchor the file uses elsewhere ("base: &base
// {budget: 3000}" for "context: {<<: *base}"): a definition, not a
// mistyped setting. It gives nil when nothing else is wrong.
func withoutDefinitions(b []byte, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return err
	}
	used := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			used[n.Alias] = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	definitions := map[string]bool{}
	top := doc.Content[0].Content
	for i := 0; i+1 < len(top); i += 2 {
		if v := top[i+1]; v.Anchor != "" && used[v] {
			definitions[fmt.Sprintf("line %d: field %s not found in type config.Config", top[i].Line, top[i].Value)] = true
		}
	}
	var rest []string
	for _, e := range te.Errors {
		if !definitions[e] {
			rest = append(rest, e)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return &yaml.TypeError{Errors: rest}
}

// The patterns of yaml.v3's messages, compiled when a file has an error:
// nothing is compiled at a hook's start.
var (
	unknownField = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^line (\d+): field (\S+) not found in type config\.(\w+)$`)
	})
	wrongType = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
	})
)

// explain rewrites yaml.v3's errors in the words of the file: the
// setting's full name, what it takes.
func explain(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var msgs []string
	for _, e := range te.Errors {
		switch m := unknownField().FindStringSubmatch(e); {
		case m != nil:
			prefix, keys := sectionOf(m[3])
			msgs = append(msgs, fmt.Sprintf("line %s: unknown setting %q (%s)", m[1], prefix+m[2], keys))
		default:
			if m := wrongType().FindStringSubmatch(e); m != nil {
				given := yamlKind(m[2])
				if m[3] != "" {
					given = fmt.Sprintf("%q is %s", m[3], given)
				}
				msgs = append(msgs, fmt.Sprintf("line %s: %s where %s is wanted", m[1], given, goKind(m[4])))
				continue
			}
			msgs = append(msgs, e)
		}
	}
	return errors.New(strings.Join(msgs, "; "))
}

// sectionOf names the section a Config type is read into, and the keys
// it takes: "recall.", "recall takes threshold, max, budget".
func sectionOf(typeName string) (prefix, keys string) {
	root := reflect.TypeFor[Config]()
	t, section := root, ""
	for i := range root.NumField() {
		f := root.Field(i)
		if f.Type.Name() == typeName {
			t, section = f.Type, yamlName(f)
		}
	}
	var names []string
	for i := range t.NumField() {
		names = append(names, yamlName(t.Field(i)))
	}
	if section == "" {
		return "", "settings are " + strings.Join(names, ", ")
	}
	return section + ".", section + " takes " + strings.Join(names, ", ")
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func yamlKind(tag string) string {
	switch tag {
	case "str":
		return "text"
	case "int":
		return "a whole number"
	case "float":
		return "a number"
	case "bool":
		return "true or false"
	case "map":
		return "a section"
	case "seq":
		return "a list"
	}
	return "!!" + tag
}

func goKind(t string) string {
	switch {
	case t == "int":
		return "a whole number"
	case t == "float64":
		return "a number"
	case t == "string":
		return "text"
	case strings.HasPrefix(t, "config."):
		return "a section of settings"
	}
	return t
}
