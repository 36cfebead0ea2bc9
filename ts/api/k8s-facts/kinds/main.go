// Command kinds runs the cases in ts/api/validation/kinds/cases.json through Kubernetes v1.32.4
// itself — JSON decoding into the v1 type, the v1 defaulters, conversion to the internal type and
// the kind's registry-strategy validation — and writes each case's error messages to
// kinds.k8s.json, so the TypeScript validators are checked against Kubernetes' real answers.
//
//	cd ts/api/k8s-facts/kinds && go run . ../../validation/kinds
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	autoscalingvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/coordination"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	coordinationvalidation "k8s.io/kubernetes/pkg/apis/coordination/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/discovery"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	discoveryvalidation "k8s.io/kubernetes/pkg/apis/discovery/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/rbac"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	rbacvalidation "k8s.io/kubernetes/pkg/apis/rbac/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/capabilities"
)

type testCase struct {
	Name   string          `json:"name"`
	Object json.RawMessage `json:"object"`
	Old    json.RawMessage `json:"old,omitempty"`
	// Status: the update is a write through the status subresource.
	Status bool `json:"status,omitempty"`
}

// internal decodes a v1 object, applies the v1 defaults and converts it to the internal type.
func internal(raw json.RawMessage) runtime.Object {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	must(json.Unmarshal(raw, &tm))
	gv, err := schema.ParseGroupVersion(tm.APIVersion)
	must(err)
	gvk := gv.WithKind(tm.Kind)
	versioned, err := legacyscheme.Scheme.New(gvk)
	must(err)
	must(json.Unmarshal(raw, versioned))
	legacyscheme.Scheme.Default(versioned)
	out, err := legacyscheme.Scheme.ConvertToVersion(versioned, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	must(err)
	return out
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func podOpts(spec, old *core.PodTemplateSpec) corevalidation.PodValidationOptions {
	if old == nil {
		return podutil.GetValidationOptionsFromPodTemplate(spec, nil)
	}
	return podutil.GetValidationOptionsFromPodTemplate(spec, old)
}

func immutableSelector(n, o interface{}) field.ErrorList {
	return apimachineryvalidation.ValidateImmutableField(n, o, field.NewPath("spec").Child("selector"))
}

// validateStatus runs what the kind's status strategy runs on update.
func validateStatus(obj, old runtime.Object) field.ErrorList {
	switch o := obj.(type) {
	case *apps.Deployment:
		return appsvalidation.ValidateDeploymentStatusUpdate(o, old.(*apps.Deployment))
	case *apps.ReplicaSet:
		return appsvalidation.ValidateReplicaSetStatusUpdate(o, old.(*apps.ReplicaSet))
	case *core.ReplicationController:
		return corevalidation.ValidateReplicationControllerStatusUpdate(o, old.(*core.ReplicationController))
	case *apps.StatefulSet:
		return appsvalidation.ValidateStatefulSetStatusUpdate(o, old.(*apps.StatefulSet))
	case *apps.DaemonSet:
		return appsvalidation.ValidateDaemonSetStatusUpdate(o, old.(*apps.DaemonSet))
	case *autoscaling.HorizontalPodAutoscaler:
		return autoscalingvalidation.ValidateHorizontalPodAutoscalerStatusUpdate(o, old.(*autoscaling.HorizontalPodAutoscaler))
	}
	panic(fmt.Sprintf("no status validation for %T", obj))
}

// validate runs what the kind's registry strategy runs (Validate, or ValidateUpdate with old).
func validate(obj, old runtime.Object) field.ErrorList {
	switch o := obj.(type) {
	case *core.Pod:
		if old == nil {
			return corevalidation.ValidatePodCreate(o, podutil.GetValidationOptionsFromPodSpecAndMeta(&o.Spec, nil, &o.ObjectMeta, nil))
		}
		p := old.(*core.Pod)
		return corevalidation.ValidatePodUpdate(o, p, podutil.GetValidationOptionsFromPodSpecAndMeta(&o.Spec, &p.Spec, &o.ObjectMeta, &p.ObjectMeta))
	case *core.Service:
		if old == nil {
			return corevalidation.ValidateServiceCreate(o)
		}
		return corevalidation.ValidateServiceUpdate(o, old.(*core.Service))
	case *core.Node:
		if old == nil {
			return corevalidation.ValidateNode(o)
		}
		return corevalidation.ValidateNodeUpdate(o, old.(*core.Node))
	case *core.Endpoints:
		if old == nil {
			return corevalidation.ValidateEndpointsCreate(o)
		}
		return corevalidation.ValidateEndpointsUpdate(o, old.(*core.Endpoints))
	case *core.LimitRange:
		return corevalidation.ValidateLimitRange(o)
	case *core.ResourceQuota:
		if old == nil {
			return corevalidation.ValidateResourceQuota(o)
		}
		return corevalidation.ValidateResourceQuotaUpdate(o, old.(*core.ResourceQuota))
	case *core.ServiceAccount:
		return corevalidation.ValidateServiceAccount(o)
	case *core.ReplicationController:
		// rcStrategy.Validate / ValidateUpdate (pkg/registry/core/replicationcontroller/strategy.go).
		if old == nil {
			return corevalidation.ValidateReplicationController(o, podutil.GetValidationOptionsFromPodTemplate(o.Spec.Template, nil))
		}
		r := old.(*core.ReplicationController)
		opts := podutil.GetValidationOptionsFromPodTemplate(o.Spec.Template, r.Spec.Template)
		errs := corevalidation.ValidateReplicationController(o, opts)
		return append(errs, corevalidation.ValidateReplicationControllerUpdate(o, r, opts)...)
	case *core.Event:
		return corevalidation.ValidateEventCreate(o, corev1.SchemeGroupVersion)
	case *apps.Deployment:
		if old == nil {
			return appsvalidation.ValidateDeployment(o, podOpts(&o.Spec.Template, nil))
		}
		d := old.(*apps.Deployment)
		errs := appsvalidation.ValidateDeploymentUpdate(o, d, podOpts(&o.Spec.Template, &d.Spec.Template))
		return append(errs, immutableSelector(o.Spec.Selector, d.Spec.Selector)...)
	case *apps.ReplicaSet:
		if old == nil {
			return appsvalidation.ValidateReplicaSet(o, podOpts(&o.Spec.Template, nil))
		}
		r := old.(*apps.ReplicaSet)
		opts := podOpts(&o.Spec.Template, &r.Spec.Template)
		errs := appsvalidation.ValidateReplicaSet(o, opts)
		errs = append(errs, appsvalidation.ValidateReplicaSetUpdate(o, r, opts)...)
		return append(errs, immutableSelector(o.Spec.Selector, r.Spec.Selector)...)
	case *apps.DaemonSet:
		if old == nil {
			return appsvalidation.ValidateDaemonSet(o, podOpts(&o.Spec.Template, nil))
		}
		r := old.(*apps.DaemonSet)
		opts := podOpts(&o.Spec.Template, &r.Spec.Template)
		errs := appsvalidation.ValidateDaemonSet(o, opts)
		errs = append(errs, appsvalidation.ValidateDaemonSetUpdate(o, r, opts)...)
		return append(errs, immutableSelector(o.Spec.Selector, r.Spec.Selector)...)
	case *apps.StatefulSet:
		if old == nil {
			return appsvalidation.ValidateStatefulSet(o, podOpts(&o.Spec.Template, nil))
		}
		r := old.(*apps.StatefulSet)
		return appsvalidation.ValidateStatefulSetUpdate(o, r, podOpts(&o.Spec.Template, &r.Spec.Template))
	case *batch.Job:
		if old == nil {
			return batchvalidation.ValidateJob(o, batchvalidation.JobValidationOptions{
				PodValidationOptions: podOpts(&o.Spec.Template, nil), RequirePrefixedLabels: true})
		}
		j := old.(*batch.Job)
		_, hadName := j.Spec.Template.Labels[batch.JobNameLabel]
		_, hadUID := j.Spec.Template.Labels[batch.ControllerUidLabel]
		opts := batchvalidation.JobValidationOptions{
			PodValidationOptions:             podOpts(&o.Spec.Template, &j.Spec.Template),
			RequirePrefixedLabels:            hadName && hadUID,
			AllowMutableSchedulingDirectives: j.Spec.Suspend != nil && *j.Spec.Suspend && j.Status.StartTime == nil,
		}
		return append(batchvalidation.ValidateJob(o, opts), batchvalidation.ValidateJobUpdate(o, j, opts)...)
	case *batch.CronJob:
		if old == nil {
			return batchvalidation.ValidateCronJobCreate(o, podOpts(&o.Spec.JobTemplate.Spec.Template, nil))
		}
		c := old.(*batch.CronJob)
		return batchvalidation.ValidateCronJobUpdate(o, c, podOpts(&o.Spec.JobTemplate.Spec.Template, &c.Spec.JobTemplate.Spec.Template))
	case *autoscaling.HorizontalPodAutoscaler:
		if old == nil {
			return autoscalingvalidation.ValidateHorizontalPodAutoscaler(o)
		}
		return autoscalingvalidation.ValidateHorizontalPodAutoscalerUpdate(o, old.(*autoscaling.HorizontalPodAutoscaler))
	case *policy.PodDisruptionBudget:
		return policyvalidation.ValidatePodDisruptionBudget(o, policyvalidation.PodDisruptionBudgetValidationOptions{})
	case *scheduling.PriorityClass:
		if old == nil {
			return schedulingvalidation.ValidatePriorityClass(o)
		}
		return schedulingvalidation.ValidatePriorityClassUpdate(o, old.(*scheduling.PriorityClass))
	case *rbac.Role:
		if old == nil {
			return rbacvalidation.ValidateRole(o)
		}
		return rbacvalidation.ValidateRoleUpdate(o, old.(*rbac.Role))
	case *rbac.ClusterRole:
		return rbacvalidation.ValidateClusterRole(o, rbacvalidation.ClusterRoleValidationOptions{})
	case *rbac.RoleBinding:
		if old == nil {
			return rbacvalidation.ValidateRoleBinding(o)
		}
		return rbacvalidation.ValidateRoleBindingUpdate(o, old.(*rbac.RoleBinding))
	case *rbac.ClusterRoleBinding:
		if old == nil {
			return rbacvalidation.ValidateClusterRoleBinding(o)
		}
		return rbacvalidation.ValidateClusterRoleBindingUpdate(o, old.(*rbac.ClusterRoleBinding))
	case *coordination.Lease:
		return coordinationvalidation.ValidateLease(o)
	case *discovery.EndpointSlice:
		if old == nil {
			return discoveryvalidation.ValidateEndpointSliceCreate(o)
		}
		return discoveryvalidation.ValidateEndpointSliceUpdate(o, old.(*discovery.EndpointSlice))
	}
	panic(fmt.Sprintf("no validation for %T", obj))
}

// pointers are the addresses Go prints for non-nil pointers inside %#v literals; they change from
// run to run, so the facts carry the one fixed address the TypeScript port prints.
var pointers = regexp.MustCompile(`\)\(0x[0-9a-f]+\)`)

// cause is one field error as the 422 Status lists it.
type cause struct {
	Type    string `json:"reason"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func main() {
	// kube-apiserver --allow-privileged=true, as kubeadm and kind run it.
	capabilities.Setup(true, 0)
	dir := os.Args[1]
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	must(err)
	var cases []testCase
	must(json.Unmarshal(raw, &cases))
	out := map[string][]cause{}
	count := 0
	for _, c := range cases {
		var old runtime.Object
		if len(c.Old) > 0 {
			old = internal(c.Old)
		}
		var errs field.ErrorList
		if c.Status {
			errs = validateStatus(internal(c.Object), old)
		} else {
			errs = validate(internal(c.Object), old)
		}
		list := []cause{}
		for _, e := range errs {
			// The ObjectMeta checks are the apiserver's, tested elsewhere; the cases keep metadata valid.
			if strings.HasPrefix(e.Field, "metadata.") && e.Type == field.ErrorTypeInvalid && strings.Contains(e.Detail, "must be specified for an update") {
				continue
			}
			msg := pointers.ReplaceAllString(e.Error(), ")(0xc000000000)")
			// The pod update message ends in a cmp.Diff, whose layout go-cmp randomizes on purpose:
			// only its first line is stable.
			if i := strings.Index(msg, "\n"); i >= 0 {
				msg = msg[:i]
			}
			list = append(list, cause{Type: string(e.Type), Field: e.Field, Message: msg})
		}
		out[c.Name] = list
		count++
	}
	b, err := json.MarshalIndent(out, "", "  ")
	must(err)
	must(os.WriteFile(filepath.Join(dir, "kinds.k8s.json"), append(b, '\n'), 0o644))
	fmt.Printf("%d cases\n", count)
}
