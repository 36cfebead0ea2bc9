//! Property tests of the resource math: round trips Kubernetes relies on, monotonicity and
//! ranges of the conversions, and quantity parse/print round trips.

// Test helpers outside #[test] fns may unwrap too: a failing unwrap is a failing test.
#![allow(clippy::unwrap_used)]

use kubewasm_cgroup::*;
use proptest::prelude::*;

const GI: i64 = 1 << 30;

proptest! {
    /// milliCPU → shares → milliCPU is exact over the range the kubelet's in-place resize uses
    /// (10m up to the 256-CPU cap; below 10m MinShares and the 1ms quota floor take over).
    #[test]
    fn milli_cpu_survives_shares_round_trip(milli in 10i64..=256_000) {
        prop_assert_eq!(shares_to_milli_cpu(milli_cpu_to_shares(milli)), milli);
    }

    /// milliCPU → quota → milliCPU is exact once the quota is above its 1ms floor.
    #[test]
    fn milli_cpu_survives_quota_round_trip(milli in 10i64..=10_000_000, period in 1_000u64..=1_000_000) {
        let quota = milli_cpu_to_quota(milli, period).unwrap();
        if quota > MIN_QUOTA_PERIOD as i64 && (milli * period as i64) % 1000 == 0 {
            prop_assert_eq!(quota_to_milli_cpu(quota, period).unwrap(), milli);
        }
        prop_assert!(quota >= MIN_QUOTA_PERIOD as i64);
    }

    /// The linear weight's inverse never overshoots: shares → weight → shares ≤ shares.
    #[test]
    fn weight_inverse_never_overshoots(shares in MIN_SHARES..=MAX_SHARES) {
        let back = cpu_weight_to_shares(cpu_weight_linear(shares));
        prop_assert!(back <= shares && back >= MIN_SHARES);
    }

    /// More CPU never gives fewer shares, less quota or a smaller weight, and weights stay in
    /// the kernel's [1, 10000].
    #[test]
    fn conversions_are_monotone(a in 0i64..=400_000, b in 0i64..=400_000) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let (s_lo, s_hi) = (milli_cpu_to_shares(lo), milli_cpu_to_shares(hi));
        prop_assert!(s_lo <= s_hi);
        prop_assert!((MIN_SHARES..=MAX_SHARES).contains(&s_lo));
        prop_assert!(cpu_weight_linear(s_lo) <= cpu_weight_linear(s_hi));
        prop_assert!(cpu_weight_log_quadratic(s_lo) <= cpu_weight_log_quadratic(s_hi));
        for w in [cpu_weight_linear(s_hi), cpu_weight_log_quadratic(s_hi)] {
            prop_assert!((MIN_WEIGHT..=MAX_WEIGHT).contains(&w));
        }
        let (q_lo, q_hi) = (milli_cpu_to_quota(lo, QUOTA_PERIOD).unwrap(), milli_cpu_to_quota(hi, QUOTA_PERIOD).unwrap());
        prop_assert!(q_lo <= q_hi);
    }

    /// The quadratic weight is strictly above the linear one between the end points (it is
    /// meant to give small requests more weight).
    #[test]
    fn quadratic_weight_dominates_linear(shares in 3u64..MAX_SHARES) {
        prop_assert!(cpu_weight_log_quadratic(shares) >= cpu_weight_linear(shares));
    }

    /// Printing then parsing keeps the amount, and the canonical text is a fixed point.
    #[test]
    fn quantity_print_parse_round_trip(
        mantissa in -1_000_000_000_000i64..1_000_000_000_000,
        fraction in 0u32..4,
        suffix in prop::sample::select(vec!["", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "e3", "e-2", "E6"]),
    ) {
        let text = if fraction == 0 {
            format!("{mantissa}{suffix}")
        } else {
            let scale = 10i64.pow(fraction);
            format!("{}{}.{:0width$}{suffix}", if mantissa < 0 { "-" } else { "" }, (mantissa / scale).abs(), (mantissa % scale).abs(), width = fraction as usize)
        };
        let q = Quantity::parse(&text).unwrap();
        let printed = q.to_string();
        let again = Quantity::parse(&printed).unwrap();
        prop_assert_eq!(&again, &q, "{} → {}", text, printed);
        let canonical = q.canonical();
        prop_assert_eq!(Quantity::parse(&canonical).unwrap().canonical(), canonical);
    }

    /// Whole and milli constructors read back exactly.
    #[test]
    fn constructors_read_back(value in any::<i64>(), milli in -9_000_000_000_000_000i64..9_000_000_000_000_000) {
        prop_assert_eq!(Quantity::new(value, Format::DecimalSI).value().unwrap(), value);
        prop_assert_eq!(Quantity::from_milli(milli, Format::DecimalSI).milli_value().unwrap(), milli);
        let printed = Quantity::new(value, Format::BinarySI).to_string();
        prop_assert_eq!(Quantity::parse(&printed).unwrap().value().unwrap(), value);
    }

    /// Addition is exact: (a + b) - b == a, and it orders like the integers it came from.
    #[test]
    fn add_sub_is_exact(a in any::<i64>(), b in any::<i64>(), sa in -9i32..=9, sb in -9i32..=9) {
        let qa = Quantity::from_scaled(a, sa).unwrap();
        let qb = Quantity::from_scaled(b, sb).unwrap();
        let sum = qa.add(&qb).unwrap();
        prop_assert_eq!(sum.sub(&qb).unwrap(), qa.clone());
        prop_assert_eq!(qa.cmp(&qb), (i128::from(a) * 10i128.pow((sa + 9) as u32)).cmp(&(i128::from(b) * 10i128.pow((sb + 9) as u32))));
    }

    /// Parsing never panics, whatever the text.
    #[test]
    fn parse_never_panics(text in "[-+0-9.eEinumkKMGTP ]{0,24}") {
        let _ = Quantity::parse(&text).map(|q| (q.to_string(), q.milli_value(), q.value()));
    }

    /// Burstable OOM scores stay within [3, 999].
    #[test]
    fn burstable_oom_scores_stay_in_range(request in 1i64..=64 * GI, capacity in 1i64..=64 * GI) {
        let pod = PodSpec::new("u", vec![Container::new("a", &[("memory", &request.to_string())], &[]).unwrap()]);
        let score = container_oom_score_adjust(&pod, &pod.containers[0], capacity).unwrap();
        prop_assert!((3..=999).contains(&score));
        let expected = (1000 - (1000 * i128::from(request)) / i128::from(capacity)).clamp(3, 999);
        prop_assert_eq!(i128::from(score), expected);
    }

    /// memory.high is page aligned and lies in (request, limit].
    #[test]
    fn memory_high_is_page_aligned_and_bounded(request in 0i64..=16 * GI, extra in 0i64..=16 * GI) {
        let limit = request + extra;
        let qos = container_memory_qos(request, limit, 32 * GI, DEFAULT_MEMORY_THROTTLING_FACTOR, DEFAULT_PAGE_SIZE).unwrap();
        if let Some(high) = qos.high {
            prop_assert_eq!(high % DEFAULT_PAGE_SIZE, 0);
            prop_assert!(high > request && high <= limit);
        }
        prop_assert_eq!(qos.min, (request != 0).then_some(request));
    }

    /// Adding a container never lowers the pod's requests.
    #[test]
    fn pod_requests_grow_with_containers(cpus in prop::collection::vec(0i64..=8000, 1..6), extra in 0i64..=8000, sidecar in any::<bool>()) {
        let container = |i: usize, m: i64| Container::new(&format!("c{i}"), &[("cpu", &format!("{m}m"))], &[]).unwrap();
        let mut pod = PodSpec::new("u", cpus.iter().enumerate().map(|(i, m)| container(i, *m)).collect());
        let before = scheduler_requests(&pod).unwrap().milli_cpu;
        prop_assert_eq!(before, cpus.iter().sum::<i64>());
        let mut init = container(99, extra);
        if sidecar {
            init = init.restartable();
        }
        pod.init_containers.push(init);
        let after = scheduler_requests(&pod).unwrap().milli_cpu;
        prop_assert!(after >= before);
        prop_assert_eq!(after, if sidecar { before + extra } else { before.max(extra) });
    }
}

/// Kubernetes 1.37's per-container `ComputePodQOS` (`requirementsQOS` / `resourceQOS`).
fn per_container_qos(pod: &PodSpec) -> QosClass {
    let resource_qos = |c: &Container, name: &str| {
        let request = quantity_of(&c.resources.requests, name);
        let limit = quantity_of(&c.resources.limits, name);
        if request != limit {
            QosClass::Burstable
        } else if request.is_zero() {
            QosClass::BestEffort
        } else {
            QosClass::Guaranteed
        }
    };
    let mut pod_class = None;
    for c in pod.init_containers.iter().chain(&pod.containers) {
        let class = if c.resources.requests.is_empty() && c.resources.limits.is_empty() {
            QosClass::BestEffort
        } else {
            let (cpu, memory) = (resource_qos(c, CPU), resource_qos(c, MEMORY));
            if cpu == QosClass::Burstable || cpu != memory {
                QosClass::Burstable
            } else {
                cpu
            }
        };
        if class == QosClass::Burstable {
            return class;
        }
        match pod_class {
            None => pod_class = Some(class),
            Some(previous) if previous != class => return QosClass::Burstable,
            Some(_) => {}
        }
    }
    pod_class.unwrap_or(QosClass::BestEffort)
}

fn arbitrary_container(index: usize) -> impl Strategy<Value = Container> {
    let amount = prop::option::of(prop::sample::select(vec!["0", "100m", "1", "1000m", "2"]));
    let memory = prop::option::of(prop::sample::select(vec!["0", "1Gi", "1024Mi", "2Gi"]));
    (amount.clone(), amount, memory.clone(), memory).prop_map(move |(rc, lc, rm, lm)| {
        let mut requests = Vec::new();
        let mut limits = Vec::new();
        if let Some(v) = rc {
            requests.push(("cpu", v));
        }
        if let Some(v) = lc {
            limits.push(("cpu", v));
        }
        if let Some(v) = rm {
            requests.push(("memory", v));
        }
        if let Some(v) = lm {
            limits.push(("memory", v));
        }
        Container::new(&format!("c{index}"), &requests, &limits).unwrap()
    })
}

proptest! {
    /// On valid pods the summing QoS of ≤ 1.36 and the per-container QoS of 1.37 agree.
    #[test]
    fn qos_algorithms_agree_on_valid_pods(
        a in arbitrary_container(0),
        b in arbitrary_container(1),
        init in prop::option::of(arbitrary_container(2)),
        defaulted in any::<bool>(),
    ) {
        let mut pod = PodSpec::new("u", vec![a, b]);
        pod.init_containers.extend(init);
        if defaulted {
            pod = pod.with_api_defaults();
        }
        prop_assume!(pod.validate().is_ok());
        prop_assert_eq!(pod_qos(&pod).unwrap(), per_container_qos(&pod));
    }
}
