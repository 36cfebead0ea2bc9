//! milliCPU → cgroup CPU controls, as the kubelet and the OCI runtime compute them.
//!
//! Constants and formulas: kubernetes `pkg/kubelet/cm/helpers_linux.go` (v1),
//! `pkg/kubelet/cm/cgroup_manager_linux.go` `getCPUWeight` (v2, linear) and
//! opencontainers/cgroups `utils.go` `ConvertCPUSharesToCgroupV2Value` (v2, runc >= 1.3.2).

use crate::CgroupError;

/// `MinShares` — pkg/kubelet/cm/helpers_linux.go.
pub const MIN_SHARES: u64 = 2;
/// `MaxShares` — pkg/kubelet/cm/helpers_linux.go.
pub const MAX_SHARES: u64 = 262_144;
/// `SharesPerCPU` — pkg/kubelet/cm/helpers_linux.go.
const SHARES_PER_CPU: i64 = 1024;
/// `MilliCPUToCPU` — pkg/kubelet/cm/helpers_linux.go.
const MILLI_CPU_TO_CPU: i64 = 1000;
/// `QuotaPeriod`, 100 ms in µs — pkg/kubelet/cm/helpers_linux.go.
pub const QUOTA_PERIOD: u64 = 100_000;
/// `MinQuotaPeriod`, 1 ms in µs — pkg/kubelet/cm/helpers_linux.go.
pub const MIN_QUOTA_PERIOD: u64 = 1_000;
/// Upper bound of `cpuCFSQuotaPeriod`, 1 s — pkg/kubelet/apis/config/validation/validation.go.
const MAX_QUOTA_PERIOD: u64 = 1_000_000;
/// Largest cgroup v2 `cpu.weight` — the kernel's CGROUP_WEIGHT_MAX, used by getCPUWeight
/// (pkg/kubelet/cm/cgroup_manager_linux.go) and ConvertCPUSharesToCgroupV2Value.
pub const MAX_WEIGHT: u64 = 10_000;
/// Smallest cgroup v2 `cpu.weight` — the kernel's CGROUP_WEIGHT_MIN.
pub const MIN_WEIGHT: u64 = 1;
/// `Cgroup2MaxCpuLimit` — the "no limit" word of cpu.max (pkg/kubelet/cm/cgroup_manager_linux.go).
pub const CGROUP2_MAX: &str = "max";

/// `MilliCPUToShares`: cpu.shares (cgroup v1) for a CPU request. `1000 → 1024`, `0 → 2`.
pub fn milli_cpu_to_shares(milli_cpu: i64) -> u64 {
    if milli_cpu <= 0 {
        return MIN_SHARES;
    }
    let shares = milli_cpu.saturating_mul(SHARES_PER_CPU) / MILLI_CPU_TO_CPU;
    (shares.max(0) as u64).clamp(MIN_SHARES, MAX_SHARES)
}

/// `MilliCPUToQuota`: the CFS quota in µs for a CPU limit over `period_us`.
/// `0` means no limit (quota unset); any limit gets at least 1 ms.
pub fn milli_cpu_to_quota(milli_cpu: i64, period_us: u64) -> Result<i64, CgroupError> {
    check_period(period_us)?;
    if milli_cpu <= 0 {
        return Ok(0);
    }
    let quota = milli_cpu.saturating_mul(period_us as i64) / MILLI_CPU_TO_CPU;
    Ok(quota.max(MIN_QUOTA_PERIOD as i64))
}

/// The kubelet's linear cpu.shares → cgroup v2 cpu.weight (`getCPUWeight`): `1024 → 39`.
pub fn cpu_weight_linear(shares: u64) -> u64 {
    if shares >= MAX_SHARES {
        return MAX_WEIGHT;
    }
    1 + (shares.saturating_sub(MIN_SHARES) * (MAX_WEIGHT - 1)) / (MAX_SHARES - MIN_SHARES)
}

/// runc >= 1.3.2 / crun >= 1.23 cpu.shares → cpu.weight (opencontainers/cgroups PR #20,
/// `ConvertCPUSharesToCgroupV2Value`): quadratic in log2 so that 2 → 1, 1024 → 100 and
/// 262144 → 10000. `0` means unset and stays 0. Same f64 expression order as the Go source.
pub fn cpu_weight_log_quadratic(shares: u64) -> u64 {
    if shares == 0 {
        return 0;
    }
    if shares <= MIN_SHARES {
        return MIN_WEIGHT;
    }
    if shares >= MAX_SHARES {
        return MAX_WEIGHT;
    }
    let l = (shares as f64).log2();
    let exponent = (l * l + 125.0 * l) / 612.0 - 7.0 / 34.0;
    // Within (1, 10000) by the clamps above, so the cast is exact.
    10f64.powf(exponent).ceil() as u64
}

/// Which cpu.shares → cpu.weight conversion the container runtime applies on cgroup v2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WeightFormula {
    /// `1 + ((shares-2)*9999)/262142`: the kubelet's getCPUWeight (pod and QoS cgroups) and
    /// runc < 1.3.2 for containers.
    #[default]
    Linear,
    /// runc >= 1.3.2, crun >= 1.23: [`cpu_weight_log_quadratic`].
    LogQuadratic,
}

impl WeightFormula {
    /// The cpu.weight for `shares` by this formula.
    pub fn weight(self, shares: u64) -> u64 {
        match self {
            WeightFormula::Linear => cpu_weight_linear(shares),
            WeightFormula::LogQuadratic => cpu_weight_log_quadratic(shares),
        }
    }
}

/// `cpuWeightToCPUShares` (pkg/kubelet/cm/cgroup_v2_manager_linux.go): the inverse of the
/// linear formula, `((w-1)*262142)/9999 + 2`.
pub fn cpu_weight_to_shares(weight: u64) -> u64 {
    (weight.saturating_sub(1).min(MAX_WEIGHT) * (MAX_SHARES - MIN_SHARES)) / (MAX_WEIGHT - 1)
        + MIN_SHARES
}

/// `sharesToMilliCPU` (pkg/kubelet/kuberuntime/helpers_linux.go): `ceil(shares*1000/1024)`,
/// 0 below MinShares.
pub fn shares_to_milli_cpu(shares: u64) -> i64 {
    if shares < MIN_SHARES {
        return 0;
    }
    let milli = (u128::from(shares) * MILLI_CPU_TO_CPU as u128).div_ceil(SHARES_PER_CPU as u128);
    i64::try_from(milli).unwrap_or(i64::MAX)
}

/// `quotaToMilliCPU` (pkg/kubelet/kuberuntime/helpers_linux.go): `quota*1000/period`, 0 for
/// an unlimited quota (-1).
pub fn quota_to_milli_cpu(quota_us: i64, period_us: u64) -> Result<i64, CgroupError> {
    check_period(period_us)?;
    if quota_us == -1 {
        return Ok(0);
    }
    Ok(quota_us.saturating_mul(MILLI_CPU_TO_CPU) / period_us as i64)
}

/// The cgroup v2 `cpu.max` text: `"<quota> <period>"`, or `"max <period>"` when the quota is
/// unset (0) or unlimited (-1). `cpu_max(50_000, 100_000)` → `"50000 100000"`.
pub fn cpu_max(quota_us: i64, period_us: u64) -> String {
    if quota_us > 0 {
        format!("{quota_us} {period_us}")
    } else {
        format!("{CGROUP2_MAX} {period_us}")
    }
}

/// What runc's fs2 driver writes to `cpu.max` for a quota and period (opencontainers/cgroups
/// `fs2/cpu.go` `setCpu`): nothing when both are unset (0), else the quota or `max`, then the
/// period, 100000 when unset.
pub fn fs2_cpu_max(quota_us: i64, period_us: u64) -> Option<String> {
    if quota_us == 0 && period_us == 0 {
        return None;
    }
    let period = if period_us == 0 {
        QUOTA_PERIOD
    } else {
        period_us
    };
    Some(cpu_max(quota_us, period))
}

/// Checks a CFS period against the kubelet's accepted range [1ms, 1s].
pub fn check_period(period_us: u64) -> Result<(), CgroupError> {
    if (MIN_QUOTA_PERIOD..=MAX_QUOTA_PERIOD).contains(&period_us) {
        Ok(())
    } else {
        Err(CgroupError::InvalidPeriod { period_us })
    }
}

/// The CPU controls of one container with a request and a limit in milliCPU (0 = none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuValues {
    /// cgroup v1 `cpu.shares`.
    pub shares: u64,
    /// cgroup v1 `cpu.cfs_quota_us`; 0 when there is no limit.
    pub quota_us: i64,
    /// cgroup v1 `cpu.cfs_period_us`.
    pub period_us: u64,
    /// cgroup v2 `cpu.weight`, by the kubelet's linear formula.
    pub weight: u64,
    /// cgroup v2 `cpu.weight` as runc >= 1.3.2 writes it ([`cpu_weight_log_quadratic`]).
    pub weight_log_quadratic: u64,
    /// cgroup v2 `cpu.max`: `"<quota> <period>"`, or `"max <period>"` without a limit.
    pub cpu_max: String,
}

impl CpuValues {
    /// As `calculateLinuxResources` (kuberuntime_container_linux.go): shares from the request,
    /// or from the limit when only a limit is set; quota from the limit.
    pub fn for_container(
        request_milli: i64,
        limit_milli: i64,
        period_us: u64,
    ) -> Result<Self, CgroupError> {
        let shares_from = if request_milli == 0 && limit_milli != 0 {
            limit_milli
        } else {
            request_milli
        };
        let shares = milli_cpu_to_shares(shares_from);
        let quota_us = milli_cpu_to_quota(limit_milli, period_us)?;
        let cpu_max = cpu_max(quota_us, period_us);
        Ok(CpuValues {
            shares,
            quota_us,
            period_us,
            weight: cpu_weight_linear(shares),
            weight_log_quadratic: cpu_weight_log_quadratic(shares),
            cpu_max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_helpers_linux() {
        // (milliCPU, shares): the worked table of the kubelet reference.
        for (milli, shares) in [
            (0, 2),
            (1, 2),
            (10, 10),
            (100, 102),
            (250, 256),
            (500, 512),
            (1000, 1024),
            (2000, 2048),
            (4000, 4096),
            (256_000, 262_144),
            (300_000, 262_144),
        ] {
            assert_eq!(milli_cpu_to_shares(milli), shares, "milliCPU {milli}");
        }
    }

    #[test]
    fn quota_has_a_one_millisecond_floor() {
        assert_eq!(milli_cpu_to_quota(0, QUOTA_PERIOD), Ok(0));
        assert_eq!(milli_cpu_to_quota(1, QUOTA_PERIOD), Ok(1000));
        assert_eq!(milli_cpu_to_quota(10, QUOTA_PERIOD), Ok(1000));
        assert_eq!(milli_cpu_to_quota(500, QUOTA_PERIOD), Ok(50_000));
        assert_eq!(milli_cpu_to_quota(1000, QUOTA_PERIOD), Ok(100_000));
        assert_eq!(milli_cpu_to_quota(1500, 50_000), Ok(75_000));
    }

    #[test]
    fn quota_rejects_periods_the_kubelet_rejects() {
        assert_eq!(
            milli_cpu_to_quota(1000, 999).map_err(|e| e.code()),
            Err("E_INVALID_PERIOD")
        );
        assert!(milli_cpu_to_quota(1000, 1_000_001).is_err());
        assert!(milli_cpu_to_quota(1000, 1_000_000).is_ok());
    }

    #[test]
    fn linear_weight_matches_get_cpu_weight() {
        for (shares, weight) in [
            (2, 1),
            (10, 1),
            (102, 4),
            (256, 10),
            (512, 20),
            (1024, 39),
            (2048, 79),
            (4096, 157),
            (262_143, 9999),
            (262_144, 10_000),
            (1_000_000, 10_000),
        ] {
            assert_eq!(cpu_weight_linear(shares), weight, "shares {shares}");
        }
    }

    #[test]
    fn container_values() {
        let one_cpu = CpuValues::for_container(1000, 1000, QUOTA_PERIOD).unwrap();
        assert_eq!(
            one_cpu,
            CpuValues {
                shares: 1024,
                quota_us: 100_000,
                period_us: 100_000,
                weight: 39,
                weight_log_quadratic: 100,
                cpu_max: "100000 100000".into()
            }
        );
        let half_limit = CpuValues::for_container(0, 500, QUOTA_PERIOD).unwrap();
        assert_eq!(
            (half_limit.shares, half_limit.cpu_max.as_str()),
            (512, "50000 100000")
        );
        let unlimited = CpuValues::for_container(250, 0, QUOTA_PERIOD).unwrap();
        assert_eq!(
            (unlimited.shares, unlimited.cpu_max.as_str()),
            (256, "max 100000")
        );
    }

    #[test]
    fn node_md_worked_table() {
        // node.md §1.3: milliCPU → shares → linear / log-quadratic weight.
        for (milli, shares, linear, quadratic) in [
            (0, 2, 1, 1),
            (10, 10, 1, 4),
            (100, 102, 4, 17),
            (250, 256, 10, 35),
            (500, 512, 20, 59),
            (1000, 1024, 39, 100),
            (2000, 2048, 79, 174),
            (4000, 4096, 157, 303),
        ] {
            let s = milli_cpu_to_shares(milli);
            assert_eq!(s, shares, "shares of {milli}m");
            assert_eq!(cpu_weight_linear(s), linear, "linear weight of {s}");
            assert_eq!(
                cpu_weight_log_quadratic(s),
                quadratic,
                "quadratic weight of {s}"
            );
            assert_eq!(WeightFormula::Linear.weight(s), linear);
            assert_eq!(WeightFormula::LogQuadratic.weight(s), quadratic);
        }
    }

    #[test]
    fn log_quadratic_clamps() {
        assert_eq!(cpu_weight_log_quadratic(0), 0, "0 means unset");
        assert_eq!(cpu_weight_log_quadratic(1), 1);
        assert_eq!(cpu_weight_log_quadratic(2), 1);
        assert_eq!(cpu_weight_log_quadratic(3), 2);
        assert_eq!(cpu_weight_log_quadratic(262_143), 10_000);
        assert_eq!(cpu_weight_log_quadratic(262_144), 10_000);
        assert_eq!(cpu_weight_log_quadratic(u64::MAX), 10_000);
    }

    #[test]
    fn log_quadratic_is_bit_identical_to_go_for_every_share_value() {
        // FNV-1a over the weights of shares 0..=262200 as computed by Go 1.26 (linux/amd64)
        // running ConvertCPUSharesToCgroupV2Value from opencontainers/cgroups utils.go. The
        // nearest non-integer 10^exponent is 2.2e-6 from an integer (shares 116225), far above
        // any last-bit difference between libm and Go's math, and 1024 is exact in both.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for shares in 0..=262_200u64 {
            hash ^= cpu_weight_log_quadratic(shares);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(hash, 0x5a6e_c663_38ad_c53a);
    }

    #[test]
    fn reverse_conversions() {
        // cpuWeightToCPUShares: ((w-1)*262142)/9999 + 2.
        assert_eq!(cpu_weight_to_shares(1), 2);
        assert_eq!(cpu_weight_to_shares(39), 998);
        assert_eq!(cpu_weight_to_shares(10_000), 262_144);
        assert_eq!(cpu_weight_to_shares(0), 2);
        // sharesToMilliCPU: ceil(shares*1000/1024), 0 below MinShares.
        assert_eq!(shares_to_milli_cpu(0), 0);
        assert_eq!(shares_to_milli_cpu(1), 0);
        assert_eq!(shares_to_milli_cpu(2), 2);
        assert_eq!(shares_to_milli_cpu(1024), 1000);
        assert_eq!(shares_to_milli_cpu(102), 100);
        assert_eq!(shares_to_milli_cpu(262_144), 256_000);
        // quotaToMilliCPU: quota*1000/period, 0 when unlimited.
        assert_eq!(quota_to_milli_cpu(50_000, QUOTA_PERIOD), Ok(500));
        assert_eq!(quota_to_milli_cpu(-1, QUOTA_PERIOD), Ok(0));
        assert_eq!(quota_to_milli_cpu(1000, QUOTA_PERIOD), Ok(10));
        assert!(quota_to_milli_cpu(1000, 0).is_err());
    }

    #[test]
    fn cpu_max_text() {
        assert_eq!(cpu_max(50_000, 100_000), "50000 100000");
        assert_eq!(cpu_max(100_000, 100_000), "100000 100000");
        assert_eq!(cpu_max(0, 100_000), "max 100000");
        assert_eq!(cpu_max(-1, 100_000), "max 100000");
        let one_milli = CpuValues::for_container(1, 1, QUOTA_PERIOD).unwrap();
        assert_eq!(
            (one_milli.shares, one_milli.cpu_max.as_str()),
            (2, "1000 100000")
        );
        let ten_milli = CpuValues::for_container(10, 10, QUOTA_PERIOD).unwrap();
        assert_eq!((ten_milli.shares, ten_milli.quota_us), (10, 1000));
        let huge = CpuValues::for_container(1_000_000, 0, QUOTA_PERIOD).unwrap();
        assert_eq!((huge.shares, huge.weight), (262_144, 10_000));
        assert_eq!(milli_cpu_to_shares(i64::MAX), MAX_SHARES);
        assert_eq!(milli_cpu_to_shares(-5), MIN_SHARES);
        assert_eq!(
            milli_cpu_to_quota(i64::MAX, QUOTA_PERIOD),
            Ok(i64::MAX / 1000)
        );
    }

    #[test]
    fn fs2_writes_cpu_max_like_runc() {
        assert_eq!(fs2_cpu_max(0, 0), None);
        assert_eq!(fs2_cpu_max(-1, 100_000).as_deref(), Some("max 100000"));
        assert_eq!(fs2_cpu_max(0, 50_000).as_deref(), Some("max 50000"));
        assert_eq!(fs2_cpu_max(20_000, 0).as_deref(), Some("20000 100000"));
    }
}
