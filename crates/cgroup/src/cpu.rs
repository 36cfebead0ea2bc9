//! milliCPU → cgroup CPU controls, as the kubelet computes them.
//!
//! Constants and formulas: kubernetes `pkg/kubelet/cm/helpers_linux.go` (v1) and
//! `pkg/kubelet/cm/cgroup_manager_linux.go` `getCPUWeight` (v2).

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
/// Largest cgroup v2 `cpu.weight` — the kernel's CGROUP_WEIGHT_MAX, used by getCPUWeight.
const MAX_WEIGHT: u64 = 10_000;

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

fn check_period(period_us: u64) -> Result<(), CgroupError> {
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
        let cpu_max = if quota_us > 0 {
            format!("{quota_us} {period_us}")
        } else {
            format!("max {period_us}")
        };
        Ok(CpuValues {
            shares,
            quota_us,
            period_us,
            weight: cpu_weight_linear(shares),
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
}
