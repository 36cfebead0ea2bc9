//! Static and mirror pods, as pkg/kubelet/types/pod_update.go tells them: a pod from a config
//! source other than the API server (a manifest file, a URL) is static; the API server's copy
//! of it carries the mirror annotation. The kubelet treats both as critical.

use kubewasm_api::v1::Annotations;

/// `ApiserverSource` — pkg/kubelet/types/pod_update.go: the one config source that is not static.
pub const APISERVER_SOURCE: &str = "api";

/// `IsStaticPod`: `kubernetes.io/config.source` is set and is not the API server.
pub fn is_static_pod(annotations: &Annotations<'_>) -> bool {
    annotations
        .config_source
        .as_deref()
        .is_some_and(|source| source != APISERVER_SOURCE)
}

/// `IsMirrorPod`: `kubernetes.io/config.mirror` is set.
pub fn is_mirror_pod(annotations: &Annotations<'_>) -> bool {
    annotations.config_mirror
}

/// `IsStaticPod(pod) || IsMirrorPod(pod)`, what `IsCriticalPod` checks first.
pub fn is_static_or_mirror_pod(annotations: &Annotations<'_>) -> bool {
    is_static_pod(annotations) || is_mirror_pod(annotations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_other_than_the_api_server_are_static() {
        let source = |s: &'static str| Annotations {
            config_source: Some(s.into()),
            ..Annotations::default()
        };
        assert!(is_static_pod(&source("file")));
        assert!(is_static_pod(&source("http")));
        assert!(!is_static_pod(&source("api")));
        assert!(!is_static_pod(&Annotations::default()));
        let mirror = Annotations {
            config_mirror: true,
            ..Annotations::default()
        };
        assert!(is_mirror_pod(&mirror) && !is_static_pod(&mirror));
        assert!(is_static_or_mirror_pod(&mirror));
        assert!(is_static_or_mirror_pod(&source("file")));
        assert!(!is_static_or_mirror_pod(&source("api")));
    }
}
