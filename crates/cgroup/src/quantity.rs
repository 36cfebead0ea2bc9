//! Kubernetes `resource.Quantity`, parsed as `k8s.io/apimachinery/pkg/api/resource/quantity.go`
//! `ParseQuantity` does: a signed decimal number and one suffix (binary `Ki…Ei`, decimal
//! `n u m "" k M G T P E`, or an exponent `e3`/`E-2`), rounded up to whole nano-units.

use crate::CgroupError;

/// The unit family of the suffix, kept so that a quantity can be written back in its own form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `Ki`, `Mi`, … (powers of 1024).
    BinarySI,
    /// `m`, `k`, `M`, … (powers of 1000).
    DecimalSI,
    /// `e3`, `E-6`, …
    DecimalExponent,
}

/// An exact decimal amount: `mantissa × 10^scale`, never finer than nano (scale ≥ -9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    mantissa: i128,
    scale: i32,
    format: Format,
}

/// `Nano` — the finest scale a Quantity keeps (quantity.go rounds up to it).
const NANO_SCALE: i32 = -9;
/// Digits an i128 mantissa holds with room for a binary suffix of 2^60.
const MAX_DIGITS: usize = 19;

impl Quantity {
    /// Parses a quantity: `"100m"`, `"1.5Gi"`, `"2e3"`, `"-1"`.
    pub fn parse(input: &str) -> Result<Self, CgroupError> {
        let wrong = || CgroupError::QuantityFormat {
            input: input.to_string(),
        };
        let too_big = || CgroupError::QuantityRange {
            input: input.to_string(),
        };
        let parts = split(input).ok_or_else(wrong)?;
        let (base, exponent, format) = interpret_suffix(parts.suffix).ok_or_else(wrong)?;

        let whole = parts.whole.trim_start_matches('0');
        let fraction = parts.fraction.trim_end_matches('0');
        if whole.len() + fraction.len() > MAX_DIGITS {
            return Err(too_big());
        }
        let mut mantissa: i128 = 0;
        for digit in whole.bytes().chain(fraction.bytes()) {
            mantissa = mantissa * 10 + i128::from(digit - b'0');
        }
        let mut scale = -(fraction.len() as i32);
        match base {
            Base::Ten => scale = scale.checked_add(exponent).ok_or_else(too_big)?,
            Base::Two => mantissa <<= exponent,
        }
        if parts.negative {
            mantissa = -mantissa;
        }
        let mut quantity = Quantity {
            mantissa,
            scale,
            format,
        };
        quantity.round_up_to(NANO_SCALE);
        if quantity.format == Format::BinarySI && quantity.is_fraction_of_one() {
            // ParseQuantity: a binary quantity below 1 is written in decimal form.
            quantity.format = Format::DecimalSI;
        }
        Ok(quantity)
    }

    /// The amount in thousandths, rounded away from zero (`MilliValue`): `"0.5"` → 500.
    pub fn milli_value(&self) -> Result<i64, CgroupError> {
        self.scaled_value(-3)
    }

    /// The amount in whole units, rounded away from zero (`Value`): `"1.5Gi"` → 1610612736.
    pub fn value(&self) -> Result<i64, CgroupError> {
        self.scaled_value(0)
    }

    /// The unit family this quantity was written in.
    pub fn format(&self) -> Format {
        self.format
    }

    fn scaled_value(&self, scale: i32) -> Result<i64, CgroupError> {
        let mut q = *self;
        q.round_up_to(scale);
        let shift = q.scale - scale;
        let range = || CgroupError::QuantityRange {
            input: format!("{}e{}", self.mantissa, self.scale),
        };
        let factor = 10i128.checked_pow(shift.max(0) as u32).ok_or_else(range)?;
        let scaled = q.mantissa.checked_mul(factor).ok_or_else(range)?;
        i64::try_from(scaled).map_err(|_| range())
    }

    /// Drops digits finer than `10^scale`, rounding away from zero (inf.RoundUp).
    fn round_up_to(&mut self, scale: i32) {
        if self.scale >= scale {
            return;
        }
        let drop = (scale - self.scale) as u32;
        let divisor = 10i128.checked_pow(drop);
        let (quotient, inexact) = match divisor {
            Some(d) => (self.mantissa / d, self.mantissa % d != 0),
            None => (0, self.mantissa != 0),
        };
        self.mantissa = quotient + if inexact { self.mantissa.signum() } else { 0 };
        self.scale = scale;
    }

    fn is_fraction_of_one(&self) -> bool {
        self.mantissa > 0 && self.scale < 0 && self.mantissa < 10i128.pow(self.scale.unsigned_abs())
    }
}

struct Parts<'a> {
    negative: bool,
    whole: &'a str,
    fraction: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`: sign, digits, optional `.digits`, then the suffix text.
fn split(input: &str) -> Option<Parts<'_>> {
    if input.is_empty() {
        return None;
    }
    let (negative, rest) = match input.as_bytes()[0] {
        b'-' => (true, &input[1..]),
        b'+' => (false, &input[1..]),
        _ => (false, input),
    };
    let whole_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (whole, rest) = rest.split_at(whole_len);
    let (fraction, suffix) = match rest.strip_prefix('.') {
        Some(after_dot) => {
            let len = after_dot.bytes().take_while(u8::is_ascii_digit).count();
            after_dot.split_at(len)
        }
        None => ("", rest),
    };
    Some(Parts {
        negative,
        whole,
        fraction,
        suffix,
    })
}

enum Base {
    Two,
    Ten,
}

/// `suffixHandler.interpret` (quantity suffixes in suffix.go).
fn interpret_suffix(suffix: &str) -> Option<(Base, i32, Format)> {
    let decimal = |e| Some((Base::Ten, e, Format::DecimalSI));
    let binary = |e| Some((Base::Two, e, Format::BinarySI));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            let digits = suffix.strip_prefix(['e', 'E'])?;
            let unsigned = digits.strip_prefix(['+', '-']).unwrap_or(digits);
            if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let exponent: i32 = digits.parse().ok()?;
            Some((Base::Ten, exponent, Format::DecimalExponent))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn milli(s: &str) -> i64 {
        Quantity::parse(s).unwrap().milli_value().unwrap()
    }

    #[test]
    fn cpu_forms() {
        assert_eq!(milli("1"), 1000);
        assert_eq!(milli("1000m"), 1000);
        assert_eq!(milli("0.5"), 500);
        assert_eq!(milli("100m"), 100);
        assert_eq!(milli("1.5"), 1500);
        assert_eq!(milli("2e3"), 2_000_000);
        assert_eq!(milli("+250m"), 250);
        assert_eq!(milli("-1"), -1000);
    }

    #[test]
    fn sub_milli_values_round_up() {
        assert_eq!(milli("1u"), 1);
        assert_eq!(milli("0.1m"), 1);
        assert_eq!(milli("1n"), 1);
        assert_eq!(milli("0"), 0);
    }

    #[test]
    fn memory_forms() {
        let value = |s: &str| Quantity::parse(s).unwrap().value().unwrap();
        assert_eq!(value("1Ki"), 1024);
        assert_eq!(value("1.5Gi"), 1_610_612_736);
        assert_eq!(value("500Mi"), 524_288_000);
        assert_eq!(value("1G"), 1_000_000_000);
        assert_eq!(value("128974848"), 128_974_848);
        assert_eq!(value("129e6"), 129_000_000);
        assert_eq!(value("123Mi"), 128_974_848);
        assert_eq!(value("0.5"), 1);
        assert_eq!(Quantity::parse("0.5Ki").unwrap().format(), Format::BinarySI);
        assert_eq!(Quantity::parse("0.5Ki").unwrap().value().unwrap(), 512);
    }

    #[test]
    fn rejects_what_kubernetes_rejects() {
        for bad in [
            "", "abc", "1KB", "1K", "1.5.5", "1e", "1e+", "--1", "1 ", " 1", "1Mii", "1ee3",
        ] {
            let err = Quantity::parse(bad).unwrap_err();
            assert_eq!(err.code(), "E_QUANTITY_FORMAT", "{bad:?}");
        }
    }

    #[test]
    fn reports_values_it_cannot_hold() {
        let err = Quantity::parse("123456789012345678901234567890").unwrap_err();
        assert_eq!(err.code(), "E_QUANTITY_RANGE");
        let huge = Quantity::parse("1e30").unwrap();
        assert_eq!(huge.milli_value().unwrap_err().code(), "E_QUANTITY_RANGE");
    }
}
