// Command k8s-facts regenerates ts/api's *.k8s.json test fixtures by running the inputs through
// k8s.io/apimachinery v0.32.4 itself (the version kubectl v1.32 and kube-apiserver v1.32 ship), so
// the TypeScript ports are checked against Kubernetes' real messages, byte for byte.
//
//	cd ts/api/k8s-facts && go run . ..
//	npx biome check --write ts/api
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func write(name string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
		panic(err)
	}
}

func nz(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func errs(l field.ErrorList) []string {
	out := []string{}
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

var r = strings.Repeat

func names() {
	inputs := []string{
		"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
		r("a", 63), r("a", 64), r("a", 253), r("a", 254),
		"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1",
		"_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", "..",
		" ", "a ", " a", "a b", "1 ", " 1", "1 2", "a..b", "1..2",
		"a.a", "ab.a", "a--1--2--b.1", "0.1", "a.b.c.d.e", "11.22.33.44.55",
		"A.a", "aB.a", "ab.A", "A.B.C.D.E", "a@b", "a,b", "a;b", "a:b", "a%b", "a?b", "a$b", "a/b", "%", "/",
		"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
		"now.with.dots/simple", "1-num.2-num/3-num", "1.2.3.4/5678", "Uppercase_Is_OK_123",
		"example.com/Uppercase_Is_OK_123", "requests.storage-foo", r("a", 253) + "/" + r("b", 63),
		"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
		"example_com/abc", "example.com/", "/simple", r("a", 254) + "/abc", "/", "a/" + r("b", 64),
		"end-with-num-1", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash",
		"ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "my-name-", "x-", "ab-", "Bad", "héllo",
		r("é", 32),
	}
	type row struct {
		In                string   `json:"in"`
		DNS1123Label      []string `json:"dns1123Label"`
		DNS1123Subdomain  []string `json:"dns1123Subdomain"`
		DNS1035Label      []string `json:"dns1035Label"`
		QualifiedName     []string `json:"qualifiedName"`
		LabelValue        []string `json:"labelValue"`
		SubdomainPrefix   []string `json:"subdomainPrefix"`
		LabelPrefix       []string `json:"labelPrefix"`
		DNS1035Prefix     []string `json:"dns1035Prefix"`
		PathSegment       []string `json:"pathSegment"`
		PathSegmentPrefix []string `json:"pathSegmentPrefix"`
	}
	var rows []row
	for _, in := range inputs {
		rows = append(rows, row{in,
			nz(validation.IsDNS1123Label(in)), nz(validation.IsDNS1123Subdomain(in)), nz(validation.IsDNS1035Label(in)),
			nz(validation.IsQualifiedName(in)), nz(validation.IsValidLabelValue(in)),
			nz(apivalidation.NameIsDNSSubdomain(in, true)), nz(apivalidation.NameIsDNSLabel(in, true)),
			nz(apivalidation.NameIsDNS1035Label(in, true)),
			nz(path.ValidatePathSegmentName(in, false)), nz(path.ValidatePathSegmentName(in, true))})
	}
	write("names.k8s.json", rows)
}

type stringer struct{}

func (stringer) String() string { return "i-am-a-stringer" }

func fieldErrors() {
	p := field.NewPath("metadata", "name")
	five := int64(5)
	var nilPtr *int64
	cases := []*field.Error{
		field.Required(p, ""),
		field.Required(p, "name or generateName is required"),
		field.Invalid(p, "Bad", "a lowercase thing"),
		field.Invalid(p, "", "must be specified for an update"),
		field.Invalid(p, int64(-1), "must be greater than or equal to 0"),
		field.Invalid(p, int32(7), "x"),
		field.Invalid(p, 7, "go int"),
		field.Invalid(p, 1.5, "float"),
		field.Invalid(p, 1234567.5, "big float"),
		field.Invalid(p, 0.00001, "small float"),
		field.Invalid(p, true, "bool"),
		field.Invalid(p, nil, "nil"),
		field.Invalid(p, nilPtr, "nil pointer"),
		field.Invalid(p, &five, "pointer"),
		field.Invalid(p, []string{"a", "b"}, "slice"),
		field.Invalid(p, []string{}, "empty slice"),
		field.Invalid(p, map[string]string{"b": "2", "a": "1"}, "map"),
		field.Invalid(p, "quote\"back\\slash\nnew\ttab\x00nul\x7fdel é 😀 \u00a0nbsp \u200bzw", "escapes"),
		field.Invalid(p, stringer{}, "stringer"),
		field.NotSupported(field.NewPath("spec", "restartPolicy"), "Sometimes", []string{"Always", "OnFailure", "Never"}),
		field.NotSupported(field.NewPath("spec", "x"), "v", []string{}),
		field.Forbidden(field.NewPath("metadata", "namespace"), "not allowed on this type"),
		field.Forbidden(field.NewPath("spec"), ""),
		field.TooLong(field.NewPath("metadata", "annotations"), "", 262144),
		field.TooLong(field.NewPath("x"), "", -1),
		field.TooLongMaxLength(field.NewPath("x"), "abc", 3),
		field.TooMany(field.NewPath("spec", "containers"), 5, 3),
		field.TooMany(field.NewPath("spec", "containers"), -1, 3),
		field.TooMany(field.NewPath("spec", "containers"), 5, -1),
		field.Duplicate(field.NewPath("spec", "containers").Index(1).Child("name"), "web"),
		field.NotFound(field.NewPath("spec", "volumes").Index(0), "vol"),
		field.InternalError(field.NewPath("spec"), errors.New("boom")),
		field.TypeInvalid(field.NewPath("spec", "replicas"), "three", "must be an integer"),
		field.Invalid(field.NewPath("metadata").Child("labels").Key("app.kubernetes.io/name"), "x", "k"),
		field.Invalid(field.NewPath("spec").Child("containers").Index(0).Child("ports").Index(2).Child("containerPort"), int64(0), "p"),
		field.Invalid(nil, "v", "nil path"),
		field.Invalid(field.NewPath(""), "v", "empty root"),
	}
	type row struct {
		Type  string `json:"type"`
		Field string `json:"field"`
		Body  string `json:"body"`
		Error string `json:"error"`
	}
	var rows []row
	for _, e := range cases {
		rows = append(rows, row{string(e.Type), e.Field, e.ErrorBody(), e.Error()})
	}
	write("field-errors.k8s.json", rows)
}

func labelSelectors() {
	inputs := []string{
		"x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5",
		"x=a||y=b", "x==a==b", "!x=a", "x<a", "x=a,a=x", "a=x,x=a",
		"\rx", "this-is-a-dns.domain.com/key-with-dash", "this-is-another-dns.domain.com/key-with-dash in (so,what)",
		"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", "foo  in\t (abc)", "x notin\n (abc)",
		"x  notin\t\t\t(abc,def)", "x in (abc,def)", "x in (abc,)", "x in ()", "x notin (abc,,def),bar,z in (),w",
		"x,y in (a)", "x=a", "x<7", "x=a,y!=b", "x=a,y!=b,z in (h,i,j)", "x,,y", ",x,y", "x nott in (y)",
		"x notin ( )", "x notin (, a)", "a in (xyz),", "a in (xyz)b notin ()", "a ", "a in (x,y,notin, z,in)",
		"a in (xyz abc)", "a notin(", "a (", "(", "a b", "Bad_/x", "x in (a b)", "x in (", ",x", "!", "x==y",
		"x in (b,a,b)", "notin=in", "x in (c,b,a)", "x>abc", "x>-5", "x>9223372036854775808", "x<>1", "x=!",
		"x!", "x=(a)", "a=b)", "app=web,tier in (frontend,backend),!canary", "k=" + r("v", 64), r("k", 64),
		"app.kubernetes.io/name=web", "a/b/c=d", "x in (a),x notin (b)", "x=a,x=b", "é=1", "x=é",
		"environment in (production, qa)", "tier notin (frontend, backend)", "partition", "!partition",
	}
	type row struct {
		In     string `json:"in"`
		Error  string `json:"error,omitempty"`
		String string `json:"string"`
	}
	var rows []row
	for _, in := range inputs {
		sel, err := labels.Parse(in)
		if err != nil {
			rows = append(rows, row{In: in, Error: err.Error()})
		} else {
			rows = append(rows, row{In: in, String: sel.String()})
		}
	}
	type match struct {
		Selector string            `json:"selector"`
		Labels   map[string]string `json:"labels"`
		Match    bool              `json:"match"`
	}
	var matches []match
	sets := []map[string]string{{}, {"x": "y"}, {"x": "z", "z": "a"}, {"x": "z", "z": "w"}, {"x": "2"}, {"x": "0"},
		{"y": "z"}, {"notin": "in"}, {"foo": "bar", "baz": "blah"}, {"y": ""}, {"z": "v2"}, {"x": "foo", "y": "baz"},
		{"x": ""}, {"x": "-3"}, {"x": "+2"}}
	sels := []string{"", "x=y", "x=y,z=w", "x!=y,z!=w", "notin=in", "x", "!x", "x>1", "x<1", "x=z", "foo=bar",
		"baz=blah", "foo=bar,baz=blah", "foo=blah", "foo=bar,foobar=bar,baz=blah", "x notin ()", "y", "x in ()",
		"x in (foo),y notin (alpha)", "x in (foo),y in (alpha)", "z>1", "x<0", "x=", "x!="}
	for _, s := range sels {
		sel := labels.SelectorFromSet(nil)
		var err error
		sel, err = labels.Parse(s)
		if err != nil {
			panic(err)
		}
		for _, ls := range sets {
			matches = append(matches, match{s, ls, sel.Matches(labels.Set(ls))})
		}
	}
	type req struct {
		Key    string   `json:"key"`
		Op     string   `json:"op"`
		Values []string `json:"values"`
		Error  string   `json:"error,omitempty"`
		String string   `json:"string"`
	}
	var reqs []req
	reqCases := []req{
		{Key: "x1", Op: "in", Values: []string{}}, {Key: "x2", Op: "notin", Values: []string{}},
		{Key: "x3", Op: "in", Values: []string{"foo"}}, {Key: "x5", Op: "=", Values: []string{"bar", "foo"}},
		{Key: "x6", Op: "exists", Values: []string{}}, {Key: "x7", Op: "!", Values: []string{}},
		{Key: "x8", Op: "exists", Values: []string{"foo"}}, {Key: "x11", Op: "gt", Values: []string{"1"}},
		{Key: "x13", Op: "gt", Values: []string{}}, {Key: "x14", Op: "gt", Values: []string{"bar"}},
		{Key: "x15", Op: "lt", Values: []string{"bar"}}, {Key: r("a", 254), Op: "exists", Values: []string{}},
		{Key: "x16", Op: "=", Values: []string{r("a", 254)}}, {Key: "x17", Op: "=", Values: []string{"a b"}},
		{Key: "x18", Op: "unsupportedOp", Values: []string{}}, {Key: "Bad Key", Op: "in", Values: []string{"a b", "c"}},
		{Key: "x", Op: "in", Values: []string{"c", "a", "b"}}, {Key: "x", Op: "gt", Values: []string{"1", "2"}},
		{Key: "x", Op: "==", Values: []string{"v"}}, {Key: "x", Op: "!=", Values: []string{""}},
	}
	for _, c := range reqCases {
		rq, err := labels.NewRequirement(c.Key, selectionOp(c.Op), c.Values)
		if err != nil {
			c.Error = err.Error()
		} else {
			c.String = rq.String()
		}
		reqs = append(reqs, c)
	}
	type ls struct {
		Selector *metav1.LabelSelector `json:"selector"`
		Error    string                `json:"error,omitempty"`
		String   string                `json:"string"`
		Empty    bool                  `json:"empty"`
		Validate []string              `json:"validate"`
	}
	var lss []ls
	for _, s := range []*metav1.LabelSelector{
		nil, {}, {MatchLabels: map[string]string{"app": "web", "tier": "front"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "In", Values: []string{"prod", "dev"}}, {Key: "x", Operator: "DoesNotExist"}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "NotIn", Values: []string{"qa"}}, {Key: "y", Operator: "Exists"}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Foo", Values: []string{"qa"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "In"}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Exists", Values: []string{"a"}}}},
		{MatchLabels: map[string]string{"Bad Key": "v"}},
		{MatchLabels: map[string]string{"k": "bad value"}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "In", Values: []string{"ok", "bad value"}}}},
		{MatchLabels: map[string]string{"a": "1"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "In", Values: []string{"1", "2"}}}},
	} {
		row := ls{Selector: s}
		sel, err := metav1.LabelSelectorAsSelector(s)
		if err != nil {
			row.Error = err.Error()
		} else {
			row.String = sel.String()
			row.Empty = sel.Empty()
		}
		row.Validate = errs(metav1validation.ValidateLabelSelector(s, metav1validation.LabelSelectorValidationOptions{}, field.NewPath("spec", "selector")))
		lss = append(lss, row)
	}
	write("selector.k8s.json", map[string]any{"parse": rows, "matches": matches, "requirements": reqs, "labelSelectors": lss})
}

func fieldSelectors() {
	inputs := []string{
		"", "a=b", "a==b", "a!=b", "a=b,c=d", "c=d,a=b", "metadata.name=web,status.phase!=Failed",
		"a", "a,b=c", "=b", "a=", "a=b=c", "a=b\\=c", "a=b\\,c", "a=b\\\\c", "a=b\\c", "a=b\\", "a=b,,c=d",
		",", "a=b,", "x=a\\,b,y=c", "!=a", "a!==b", "a==!b", "a<b", "spec.nodeName=", "a=é", "a=b\\=\\,\\\\",
		"b=1,a=2,c=3", "involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Deployment",
	}
	type row struct {
		In     string `json:"in"`
		Error  string `json:"error,omitempty"`
		String string `json:"string"`
	}
	var rows []row
	for _, in := range inputs {
		sel, err := fields.ParseSelector(in)
		if err != nil {
			rows = append(rows, row{In: in, Error: err.Error()})
		} else {
			rows = append(rows, row{In: in, String: sel.String()})
		}
	}
	type match struct {
		Selector string            `json:"selector"`
		Fields   map[string]string `json:"fields"`
		Match    bool              `json:"match"`
	}
	var matches []match
	sets := []map[string]string{{}, {"a": "b"}, {"a": "c"}, {"a": "b", "c": "d"}, {"a": ""}, {"x": "a,b", "y": "c"}}
	for _, s := range []string{"", "a=b", "a!=b", "a=b,c=d", "a=", "a!=", "x=a\\,b,y=c", "a=c"} {
		sel, err := fields.ParseSelector(s)
		if err != nil {
			panic(err)
		}
		for _, f := range sets {
			matches = append(matches, match{s, f, sel.Matches(fields.Set(f))})
		}
	}
	type esc struct {
		In       string `json:"in"`
		Escaped  string `json:"escaped"`
		Unescape string `json:"unescaped"`
		Error    string `json:"error,omitempty"`
	}
	var escs []esc
	for _, in := range []string{"", "plain", "a,b", "a=b", "a\\b", "\\,", "\\=", "\\\\", "\\x", "trailing\\", "a,", "=", "é,é"} {
		e := esc{In: in, Escaped: fields.EscapeValue(in)}
		u, err := fields.UnescapeValue(in)
		if err != nil {
			e.Error = err.Error()
		} else {
			e.Unescape = u
		}
		escs = append(escs, e)
	}
	write("selector.k8s.json", map[string]any{"parse": rows, "matches": matches, "escape": escs})
}

func selectionOp(s string) selectionOperator { return selectionOperator(s) }

func objectMeta() {
	type row struct {
		Name       string            `json:"name"`
		Meta       metav1.ObjectMeta `json:"meta"`
		Namespaced bool              `json:"namespaced"`
		NameFn     string            `json:"nameFn"`
		Errors     []string          `json:"errors"`
	}
	ctrl := true
	bigAnn := map[string]string{"a": r("x", 262144)}
	okAnn := map[string]string{"a": r("x", 262143)}
	cases := []row{
		{Name: "valid", Meta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "no name", Meta: metav1.ObjectMeta{Namespace: "default"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "generateName only", Meta: metav1.ObjectMeta{GenerateName: "web-", Namespace: "default"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "bad generateName", Meta: metav1.ObjectMeta{GenerateName: "Web_", Name: "web-x", Namespace: "default"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "bad name", Meta: metav1.ObjectMeta{Name: "Bad", Namespace: "default"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "dotted label name", Meta: metav1.ObjectMeta{Name: "a.b"}, Namespaced: false, NameFn: "label"},
		{Name: "service name", Meta: metav1.ObjectMeta{Name: "1web", Namespace: "default"}, Namespaced: true, NameFn: "dns1035"},
		{Name: "path segment", Meta: metav1.ObjectMeta{Name: "a/b%c", Namespace: "default"}, Namespaced: true, NameFn: "path"},
		{Name: "path dot", Meta: metav1.ObjectMeta{Name: "..", Namespace: "default"}, Namespaced: true, NameFn: "path"},
		{Name: "missing namespace", Meta: metav1.ObjectMeta{Name: "web"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "bad namespace", Meta: metav1.ObjectMeta{Name: "web", Namespace: "Bad.ns"}, Namespaced: true, NameFn: "subdomain"},
		{Name: "namespace on cluster kind", Meta: metav1.ObjectMeta{Name: "node1", Namespace: "default"}, Namespaced: false, NameFn: "subdomain"},
		{Name: "negative generation", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Generation: -1}, Namespaced: true, NameFn: "subdomain"},
		{Name: "bad labels", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Labels: map[string]string{"Bad Key/x/y": "v", "k": "-bad-"}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "bad annotation key", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Annotations: map[string]string{"Example.COM/Key": "ok", "a b": "v"}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "annotations too big", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Annotations: bigAnn}, Namespaced: true, NameFn: "subdomain"},
		{Name: "annotations at limit", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Annotations: okAnn}, Namespaced: true, NameFn: "subdomain"},
		{Name: "owner refs", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", OwnerReferences: []metav1.OwnerReference{{}, {APIVersion: "a/b/c", Kind: "K", Name: "n", UID: "u"}}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "banned owner", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u"}}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "two controllers", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: "1", Controller: &ctrl}, {APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "b", UID: "2", Controller: &ctrl}}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "finalizers", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", Finalizers: []string{"kubernetes.io/pvc-protection", "Bad Finalizer", "orphan", "foregroundDeletion"}}, Namespaced: true, NameFn: "subdomain"},
		{Name: "managed fields", Meta: metav1.ObjectMeta{Name: "web", Namespace: "d", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "Apply", FieldsType: "FieldsV1"}, {Manager: "bad\x07manager", Operation: "Patch", FieldsType: "FieldsV2", Subresource: r("s", 257)}, {Manager: r("m", 129), Operation: "Update"}}}, Namespaced: true, NameFn: "subdomain"},
	}
	for i := range cases {
		c := &cases[i]
		var fn apivalidation.ValidateNameFunc
		switch c.NameFn {
		case "subdomain":
			fn = apivalidation.NameIsDNSSubdomain
		case "label":
			fn = apivalidation.NameIsDNSLabel
		case "dns1035":
			fn = apivalidation.NameIsDNS1035Label
		case "path":
			fn = path.ValidatePathSegmentName
		}
		c.Errors = errs(apivalidation.ValidateObjectMeta(&c.Meta, c.Namespaced, fn, field.NewPath("metadata")))
	}
	if len(cases[15].Meta.Annotations["a"]) > 0 {
		// keep the fixture small: the test rebuilds these annotations
		cases[15].Meta.Annotations = map[string]string{"a": "<262144 x>"}
		cases[16].Meta.Annotations = map[string]string{"a": "<262143 x>"}
	}
	type upd struct {
		Name   string            `json:"name"`
		New    metav1.ObjectMeta `json:"new"`
		Old    metav1.ObjectMeta `json:"old"`
		Errors []string          `json:"errors"`
	}
	t1 := metav1.Date(2024, 5, 1, 12, 0, 0, 0, time_UTC)
	t2 := metav1.Date(2024, 5, 2, 13, 4, 5, 0, time_UTC)
	g30 := int64(30)
	g10 := int64(10)
	base := metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1", ResourceVersion: "5", Generation: 2, CreationTimestamp: t1}
	with := func(f func(m *metav1.ObjectMeta)) metav1.ObjectMeta { m := *base.DeepCopy(); f(&m); return m }
	upds := []upd{
		{Name: "unchanged", New: base, Old: base},
		{Name: "rename", New: with(func(m *metav1.ObjectMeta) { m.Name = "other" }), Old: base},
		{Name: "move namespace", New: with(func(m *metav1.ObjectMeta) { m.Namespace = "kube-system" }), Old: base},
		{Name: "new uid", New: with(func(m *metav1.ObjectMeta) { m.UID = "uid-2" }), Old: base},
		{Name: "no resourceVersion", New: with(func(m *metav1.ObjectMeta) { m.ResourceVersion = "" }), Old: base},
		{Name: "generation decremented", New: with(func(m *metav1.ObjectMeta) { m.Generation = 1 }), Old: base},
		{Name: "creationTimestamp changed", New: with(func(m *metav1.ObjectMeta) { m.CreationTimestamp = t2 }), Old: base},
		{Name: "creationTimestamp dropped", New: with(func(m *metav1.ObjectMeta) { m.CreationTimestamp = metav1.Time{} }), Old: base},
		{Name: "deletionTimestamp set", New: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2 }), Old: base},
		{Name: "deletionTimestamp cleared", New: base, Old: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2 })},
		{Name: "grace changed", New: with(func(m *metav1.ObjectMeta) { m.DeletionGracePeriodSeconds = &g10; m.DeletionTimestamp = &t2 }), Old: with(func(m *metav1.ObjectMeta) { m.DeletionGracePeriodSeconds = &g30; m.DeletionTimestamp = &t2 })},
		{Name: "finalizer added while deleting", New: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2; m.Finalizers = []string{"b", "a", "keep"} }), Old: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2; m.Finalizers = []string{"keep"} })},
		{Name: "finalizer removed while deleting", New: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2 }), Old: with(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &t2; m.Finalizers = []string{"keep"} })},
		{Name: "bad labels on update", New: with(func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"a": "b c"} }), Old: base},
	}
	for i := range upds {
		upds[i].Errors = errs(apivalidation.ValidateObjectMetaUpdate(&upds[i].New, &upds[i].Old, field.NewPath("metadata")))
	}
	write("object-meta.k8s.json", map[string]any{"create": cases, "update": upds})
}

func statuses() {
	pods := schema.GroupResource{Resource: "pods"}
	deploys := schema.GroupResource{Group: "apps", Resource: "deployments"}
	errsList := field.ErrorList{
		field.Required(field.NewPath("spec", "containers").Index(0).Child("image"), ""),
		field.Invalid(field.NewPath("metadata", "name"), "Bad", "bad name"),
		field.Required(field.NewPath("spec", "containers").Index(0).Child("image"), ""),
	}
	out := map[string]any{
		"notFound":                apierrors.NewNotFound(pods, "x").ErrStatus,
		"notFoundGroup":           apierrors.NewNotFound(deploys, "web").ErrStatus,
		"notFoundNoName":          apierrors.NewNotFound(pods, "").ErrStatus,
		"alreadyExists":           apierrors.NewAlreadyExists(pods, "x").ErrStatus,
		"generateNameConflict":    apierrors.NewGenerateNameConflict(pods, "web-abcde", 1).ErrStatus,
		"unauthorized":            apierrors.NewUnauthorized("Unauthorized").ErrStatus,
		"unauthorizedEmpty":       apierrors.NewUnauthorized("").ErrStatus,
		"forbidden":               apierrors.NewForbidden(pods, "x", errors.New(`User "jane" cannot get resource "pods" in API group "" in the namespace "default"`)).ErrStatus,
		"forbiddenNoName":         apierrors.NewForbidden(deploys, "", errors.New("nope")).ErrStatus,
		"forbiddenNoResource":     apierrors.NewForbidden(schema.GroupResource{}, "", errors.New("nope")).ErrStatus,
		"conflict":                apierrors.NewConflict(deploys, "web", errors.New("the object has been modified; please apply your changes to the latest version and try again")).ErrStatus,
		"gone":                    apierrors.NewGone("gone away").ErrStatus,
		"expired":                 apierrors.NewResourceExpired("too old resource version: 5 (100)").ErrStatus,
		"invalid":                 apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, "bad", errsList).ErrStatus,
		"invalidOne":              apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, "bad", errsList[:1]).ErrStatus,
		"invalidGroup":            apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "web", errsList[1:2]).ErrStatus,
		"invalidNone":             apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, "bad", nil).ErrStatus,
		"badRequest":              apierrors.NewBadRequest("the server rejected our request").ErrStatus,
		"tooManyRequests":         apierrors.NewTooManyRequests("slow down", 3).ErrStatus,
		"tooManyRequestsZero":     apierrors.NewTooManyRequests("slow down", 0).ErrStatus,
		"tooManyRequestsError":    apierrors.NewTooManyRequestsError("the server has received too many requests").ErrStatus,
		"serviceUnavailable":      apierrors.NewServiceUnavailable("down").ErrStatus,
		"methodNotSupported":      apierrors.NewMethodNotSupported(deploys, "deletecollection").ErrStatus,
		"serverTimeout":           apierrors.NewServerTimeout(pods, "list", 2).ErrStatus,
		"internalError":           apierrors.NewInternalError(errors.New("boom")).ErrStatus,
		"timeout":                 apierrors.NewTimeoutError("request did not complete within requested timeout", 0).ErrStatus,
		"timeoutRetry":            apierrors.NewTimeoutError("x", 5).ErrStatus,
		"requestEntityTooLarge":   apierrors.NewRequestEntityTooLargeError("limit is 3145728").ErrStatus,
		"tooLargeResourceVersion": tooLarge(200, 100, 1).ErrStatus,
		"applyConflict":           apierrors.NewApplyConflict([]metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "kubectl-client-side-apply" using apps/v1`, Field: ".spec.replicas"}}, "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas").ErrStatus,
	}
	for k, v := range out {
		s := v.(metav1.Status)
		s.Kind = "Status"
		s.APIVersion = "v1"
		out[k] = s
	}
	write("status.k8s.json", out)
}

func options() {
	type row struct {
		Name   string   `json:"name"`
		Errors []string `json:"errors"`
	}
	bg := metav1.DeletePropagationBackground
	bad := metav1.DeletionPropagation("Sideways")
	yes := true
	no := false
	grace := int64(0)
	var rows []row
	add := func(name string, l field.ErrorList) { rows = append(rows, row{name, errs(l)}) }
	add("delete ok", metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{PropagationPolicy: &bg}))
	add("delete both", metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{PropagationPolicy: &bg, OrphanDependents: &no}))
	add("delete bad policy", metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{PropagationPolicy: &bad}))
	add("delete bad dryRun", metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{DryRun: []string{"All", "Some"}}))
	add("delete ignore store errors", metav1validation.ValidateDeleteOptions(&metav1.DeleteOptions{IgnoreStoreReadErrorWithClusterBreakingPotential: &yes, DryRun: []string{"All"}, PropagationPolicy: &bg, GracePeriodSeconds: &grace, Preconditions: &metav1.Preconditions{}}))
	add("create ok", metav1validation.ValidateCreateOptions(&metav1.CreateOptions{FieldManager: "kubectl-create", FieldValidation: "Strict"}))
	add("create bad", metav1validation.ValidateCreateOptions(&metav1.CreateOptions{FieldManager: "a\x01" + r("m", 130), DryRun: []string{"x"}, FieldValidation: "strict"}))
	add("apply without manager", metav1validation.ValidatePatchOptions(&metav1.PatchOptions{}, "application/apply-patch+yaml"))
	add("merge with force", metav1validation.ValidatePatchOptions(&metav1.PatchOptions{Force: &no}, "application/merge-patch+json"))
	add("table bad", metav1validation.ValidateTableOptions(&metav1.TableOptions{IncludeObject: "All"}))
	write("options.k8s.json", rows)
}

func formats() {
	strs := []string{
		"", "a", "A", "_a", "a_b", "1a", "my_name", "MY_NAME", "a-b", "a.b", ".", "..", "..a", ".a", "a=b", "é",
		"http", "http-alt", "-http", "http-", "h--p", "123", "a1", r("a", 15), r("a", 16), "x-header-name", "X_Y",
		"1%", "93%", "%", "1.5%", "a%", "my.env-name", "MY_ENV.NAME", "MyEnvName1", "1abc", "a b", "tab\tx",
		"key.name", "KEY_NAME", r("k", 253), r("k", 254), "_srv._tcp.example.com", "_a_.b", "a_", "*.example.com",
		"*.*.example.com", "*example.com", "*", "example.com", "example.com.", "a.b.c", "a.b.c.", "com", "Example.com",
		"a..b", "acme.io/foo", "acme.io/", "/foo", "acme.io", "Acme.io/foo", "acme.io/f^o", "acme.io/a/b?c",
		"a.b/c d", "-a.b/c",
	}
	type row struct {
		In                   string   `json:"in"`
		CIdentifier          []string `json:"cIdentifier"`
		PortName             []string `json:"portName"`
		Percent              []string `json:"percent"`
		HTTPHeaderName       []string `json:"httpHeaderName"`
		EnvVarName           []string `json:"envVarName"`
		RelaxedEnvVarName    []string `json:"relaxedEnvVarName"`
		ConfigMapKey         []string `json:"configMapKey"`
		SubdomainUnderscore  []string `json:"subdomainUnderscore"`
		Wildcard             []string `json:"wildcard"`
		FullyQualifiedName   []string `json:"fullyQualifiedName"`
		FullyQualifiedDomain []string `json:"fullyQualifiedDomain"`
		DomainPrefixedPath   []string `json:"domainPrefixedPath"`
	}
	var rows []row
	p := field.NewPath("spec", "x")
	for _, in := range strs {
		rows = append(rows, row{in, nz(validation.IsCIdentifier(in)), nz(validation.IsValidPortName(in)),
			nz(validation.IsValidPercent(in)), nz(validation.IsHTTPHeaderName(in)), nz(validation.IsEnvVarName(in)),
			nz(validation.IsRelaxedEnvVarName(in)), nz(validation.IsConfigMapKey(in)),
			nz(validation.IsDNS1123SubdomainWithUnderscore(in)), nz(validation.IsWildcardDNS1123Subdomain(in)),
			errs(validation.IsFullyQualifiedName(p, in)), errs(validation.IsFullyQualifiedDomainName(p, in)),
			errs(validation.IsDomainPrefixedPath(p, in))})
	}
	type num struct {
		In      int64    `json:"in"`
		PortNum []string `json:"portNum"`
		InRange []string `json:"inRange"`
		GroupID []string `json:"groupID"`
		UserID  []string `json:"userID"`
	}
	var nums []num
	for _, n := range []int64{-1, 0, 1, 80, 65535, 65536, 2147483647, 2147483648, 4294967295} {
		nums = append(nums, num{n, nz(validation.IsValidPortNum(int(n))), nz(validation.IsInRange(int(n), 0, 100)),
			nz(validation.IsValidGroupID(n)), nz(validation.IsValidUserID(n))})
	}
	write("formats.k8s.json", map[string]any{"strings": rows, "numbers": nums})
}

func main() {
	dir, err := filepath.Abs(os.Args[1])
	must(err)
	must(os.Chdir(dir + "/validation"))
	names()
	objectMeta()
	options()
	formats()
	must(os.Chdir(dir))
	fieldErrors()
	statuses()
	must(os.Chdir(dir + "/labels"))
	labelSelectors()
	must(os.Chdir(dir + "/fields"))
	fieldSelectors()
	fmt.Println("ok")
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// storage.NewTooLargeResourceVersionError (k8s.io/apiserver v0.32.4 pkg/storage/errors.go), copied
// to avoid pulling the apiserver's dependencies into this generator.
func tooLarge(minimumResourceVersion, currentRevision uint64, retrySeconds int) *apierrors.StatusError {
	err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", minimumResourceVersion, currentRevision), retrySeconds)
	err.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
	return err
}
