//! Kubernetes `resource.Quantity`, as `k8s.io/apimachinery/pkg/api/resource` (quantity.go,
//! suffix.go, amount.go, math.go) parses, rounds, compares, adds and prints it.
//!
//! The amount is an exact decimal `mantissa × 10^scale`. Parsing rounds away from zero to whole
//! nano-units, as `ParseQuantity` does, and binary amounts are capped at 2^63-1. Go keeps any
//! number of digits (inf.Dec); this type keeps 38 significant digits and answers
//! `E_QUANTITY_RANGE` beyond that, which no real resource amount reaches.

use crate::QuantityError;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// The unit family of the suffix, kept so that a quantity is written back in its own form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `Ki`, `Mi`, … (powers of 1024).
    BinarySI,
    /// `m`, `k`, `M`, … (powers of 1000).
    DecimalSI,
    /// `e3`, `E-6`, …
    DecimalExponent,
}

impl Format {
    /// The name Kubernetes gives the format (`resource.Format`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::BinarySI => "BinarySI",
            Format::DecimalSI => "DecimalSI",
            Format::DecimalExponent => "DecimalExponent",
        }
    }
}

/// An exact decimal amount with the format it was written in.
///
/// Equality and ordering compare the amount only, as `Quantity.Cmp` does: `"1"` equals `"1000m"`.
#[derive(Debug, Clone)]
pub struct Quantity {
    /// No trailing decimal zeros (they live in `scale`); zero is `0 × 10^0`.
    mantissa: i128,
    scale: i32,
    format: Format,
    /// The parsed text, when `ParseQuantity` keeps it as the string form (quantity.go: "if the
    /// number is in canonical form, reuse the string"). Arithmetic drops it. Shared, so that the
    /// copies pod totals make cost no allocation.
    written: Option<Arc<str>>,
}

/// `Nano` — the finest scale a parsed Quantity keeps (amount.go; quantity.go rounds up to it).
const NANO_SCALE: i64 = -9;
/// `maxInt64Factors` — digits ParseQuantity's int64 fast path accepts (math.go).
const MAX_INT64_FACTORS: usize = 18;
/// `maxAllowed`, 2^63-1 — the cap on a parsed BinarySI amount (math.go, quantity.go).
const MAX_ALLOWED: i128 = i64::MAX as i128;
/// Significant digits this type holds (10^38 < 2^127).
const MAX_DIGITS: usize = 38;
/// `splitREString` suffix characters scanned by `parseQuantityString` (quantity.go).
const SUFFIX_CHARS: &[u8] = b"eEinumkKMGTP";

impl Quantity {
    /// `ParseQuantity`: `"100m"`, `"1.5Gi"`, `"2e3"`, `"-1"`.
    pub fn parse(input: &str) -> Result<Self, QuantityError> {
        let wrong = || QuantityError::Format {
            input: input.to_string(),
        };
        let too_big = || QuantityError::Range {
            input: input.to_string(),
        };
        if input.is_empty() {
            return Err(wrong());
        }
        let parts = scan(input).ok_or_else(wrong)?;
        let (base, exponent, format) = interpret_suffix(parts.suffix).ok_or_else(wrong)?;
        let fast = takes_fast_path(&parts, base, exponent);
        if !fast && !parts.has_digit {
            // The inf.Dec path reads the number text again and finds no digit: ErrNumeric
            // ("Pi", "e-12"), while the int64 path takes the same text as 0 ("Ki", "m").
            return Err(wrong());
        }

        let (mut magnitude, scale) = match base {
            Base::Ten => decimal_amount(parts.num, parts.denom, exponent),
            Base::Two => binary_amount(parts.num, parts.denom, exponent),
        }
        .ok_or_else(too_big)?;
        if !parts.positive {
            magnitude = -magnitude;
        }
        let (mantissa, scale) = normalize(magnitude, scale).ok_or_else(too_big)?;
        let mut quantity = Quantity {
            mantissa,
            scale,
            format,
            written: None,
        };
        if format == Format::BinarySI && quantity.mantissa != 0 && quantity.abs_below_one() {
            // ParseQuantity: "This avoids rounding and hopefully confusion, too."
            quantity.format = Format::DecimalSI;
        }
        if fast && keeps_written_form(&parts, base, exponent) {
            quantity.written = Some(input.into());
        }
        Ok(quantity)
    }

    /// `NewQuantity(value, format)`.
    pub fn new(value: i64, format: Format) -> Self {
        Self::from_parts(i128::from(value), 0, format)
    }

    /// `NewMilliQuantity(value, format)`: `from_milli(1500, DecimalSI)` prints `"1500m"`.
    pub fn from_milli(value: i64, format: Format) -> Self {
        Self::from_parts(i128::from(value), -3, format)
    }

    /// `NewScaledQuantity(value, scale)`: `value × 10^scale` in DecimalSI.
    pub fn from_scaled(value: i64, scale: i32) -> Result<Self, QuantityError> {
        let (mantissa, scale) =
            normalize(i128::from(value), i64::from(scale)).ok_or_else(|| QuantityError::Range {
                input: format!("{value}e{scale}"),
            })?;
        Ok(Quantity {
            mantissa,
            scale,
            format: Format::DecimalSI,
            written: None,
        })
    }

    /// Zero in DecimalSI, what an absent Kubernetes quantity reads as.
    pub fn zero() -> Self {
        Self::new(0, Format::DecimalSI)
    }

    fn from_parts(value: i128, scale: i64, format: Format) -> Self {
        // An i64 with a scale of 0 or -3 always normalizes.
        let (mantissa, scale) = normalize(value, scale).unwrap_or((0, 0));
        Quantity {
            mantissa,
            scale,
            format,
            written: None,
        }
    }

    /// The amount in thousandths, rounded away from zero (`MilliValue`): `"0.5"` → 500.
    pub fn milli_value(&self) -> Result<i64, QuantityError> {
        self.scaled_value(-3)
    }

    /// The amount in whole units, rounded away from zero (`Value`): `"1.5Gi"` → 1610612736.
    pub fn value(&self) -> Result<i64, QuantityError> {
        self.scaled_value(0)
    }

    /// `ScaledValue(scale)`: the amount in units of `10^scale`, rounded away from zero.
    pub fn scaled_value(&self, scale: i32) -> Result<i64, QuantityError> {
        let range = || QuantityError::Range {
            input: self.to_string(),
        };
        let shift = i64::from(self.scale) - i64::from(scale);
        let scaled = if shift >= 0 {
            let factor = pow10(shift).ok_or_else(range)?;
            self.mantissa.checked_mul(factor).ok_or_else(range)?
        } else {
            div_away_from_zero(self.mantissa, -shift)
        };
        i64::try_from(scaled).map_err(|_| range())
    }

    /// The unit family this quantity is written in.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The same amount printed in another format (setting `q.Format` in Go).
    pub fn with_format(mut self, format: Format) -> Self {
        self.format = format;
        self.written = None;
        self
    }

    /// `IsZero`.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// `Sign`: -1, 0 or 1.
    pub fn sign(&self) -> i32 {
        self.mantissa.signum() as i32
    }

    /// `Add`: the exact sum. A zero receiver takes the format of `other`, as in quantity.go.
    pub fn add(&self, other: &Quantity) -> Result<Quantity, QuantityError> {
        let format = if self.is_zero() {
            other.format
        } else {
            self.format
        };
        let range = || QuantityError::Range {
            input: format!("{self} + {other}"),
        };
        let (a, b, scale) = align(self, other).ok_or_else(range)?;
        let sum = a.checked_add(b).ok_or_else(range)?;
        let (mantissa, scale) = normalize(sum, scale).ok_or_else(range)?;
        Ok(Quantity {
            mantissa,
            scale,
            format,
            written: None,
        })
    }

    /// `Sub`: the exact difference. A zero receiver takes the format of `other`.
    pub fn sub(&self, other: &Quantity) -> Result<Quantity, QuantityError> {
        self.add(&other.neg())
    }

    /// `Neg`.
    pub fn neg(&self) -> Quantity {
        Quantity {
            mantissa: -self.mantissa,
            scale: self.scale,
            format: self.format,
            written: None,
        }
    }

    /// The canonical text (`CanonicalizeBytes`), ignoring the text the quantity was parsed from:
    /// `"1.5Gi"` → `"1536Mi"`, `"1000m"` → `"1"`, `"0.5"` → `"500m"`.
    pub fn canonical(&self) -> String {
        let (number, suffix) = self.canonical_parts();
        number + suffix
    }

    /// `CanonicalizeBytes` as (number, suffix).
    fn canonical_parts(&self) -> (String, &'static str) {
        if self.is_zero() {
            return ("0".to_string(), "");
        }
        let mut format = self.format;
        let mut whole = 0i128;
        if format == Format::BinarySI {
            if self.cmp_int(-1024).is_gt() && self.cmp_int(1024).is_lt() {
                format = Format::DecimalSI;
            } else {
                match self.exact_integer() {
                    Some(value) => whole = value,
                    // "Don't lose precision-- show as DecimalSI".
                    None => format = Format::DecimalSI,
                }
            }
        }
        match format {
            Format::BinarySI => {
                let (amount, times) = remove_factors(whole, 1024);
                (amount.to_string(), binary_suffix(times))
            }
            Format::DecimalSI | Format::DecimalExponent => {
                // AsCanonicalBytes: factors of 10 already live in the scale; lower the exponent
                // to a multiple of 3.
                let mut exponent = i64::from(self.scale);
                let mut number = self.mantissa.to_string();
                while exponent % 3 != 0 {
                    number.push('0');
                    exponent -= 1;
                }
                if format == Format::DecimalSI {
                    (number, decimal_suffix(exponent))
                } else if exponent == 0 {
                    (number, "")
                } else {
                    (format!("{number}e{exponent}"), "")
                }
            }
        }
    }

    /// The value when it is a whole number (`AsScale(0)` exact), for BinarySI printing.
    fn exact_integer(&self) -> Option<i128> {
        if self.scale < 0 {
            return None; // normalized: a negative scale means a fraction
        }
        pow10(i64::from(self.scale)).and_then(|f| self.mantissa.checked_mul(f))
    }

    fn abs_below_one(&self) -> bool {
        leading_exponent(self) < 0
    }

    /// Compares with a whole number.
    fn cmp_int(&self, value: i128) -> Ordering {
        self.cmp(&Quantity::from_parts(value, 0, Format::DecimalSI))
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    /// `Cmp`: by amount, whatever the format.
    fn cmp(&self, other: &Self) -> Ordering {
        let by_sign = self.mantissa.signum().cmp(&other.mantissa.signum());
        if by_sign != Ordering::Equal || self.mantissa == 0 {
            return by_sign;
        }
        if let Some((a, b, _)) = align(self, other) {
            return a.cmp(&b);
        }
        // Too far apart to align in 128 bits, so the leading digits sit at different powers of
        // ten and those decide.
        let magnitude = leading_exponent(self).cmp(&leading_exponent(other));
        if self.mantissa < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl fmt::Display for Quantity {
    /// `String()`: the parsed text when Kubernetes keeps it, else the canonical form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.written {
            Some(text) => f.write_str(text),
            None => f.write_str(&self.canonical()),
        }
    }
}

impl std::str::FromStr for Quantity {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse(s)
    }
}

/// The position of the leading digit, `floor(log10(|amount|))`.
fn leading_exponent(q: &Quantity) -> i64 {
    let digits = q
        .mantissa
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| i64::from(d) + 1);
    digits - 1 + i64::from(q.scale)
}

/// Both mantissas at the smaller scale, or None when that overflows.
fn align(a: &Quantity, b: &Quantity) -> Option<(i128, i128, i64)> {
    let (sa, sb) = (i64::from(a.scale), i64::from(b.scale));
    let scale = sa.min(sb);
    let x = mul(a.mantissa, pow10(sa - scale)?)?;
    let y = mul(b.mantissa, pow10(sb - scale)?)?;
    Some((x, y, scale))
}

// i128 multiplication and division are library calls in wasm32; amounts nearly always fit an
// i64, so these take the 64-bit path when they can and give the same results.

/// `a.checked_mul(b)`.
fn mul(a: i128, b: i128) -> Option<i128> {
    if b == 1 {
        return Some(a);
    }
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        if let Some(product) = x.checked_mul(y) {
            return Some(i128::from(product));
        }
    }
    a.checked_mul(b)
}

/// Moves trailing zeros into the scale; None past 38 digits or an i32 scale.
fn normalize(mut mantissa: i128, mut scale: i64) -> Option<(i128, i32)> {
    if mantissa == 0 {
        return Some((0, 0));
    }
    if let Ok(mut small) = i64::try_from(mantissa) {
        while small % 10 == 0 {
            small /= 10;
            scale += 1;
        }
        mantissa = i128::from(small);
    }
    while mantissa % 10 == 0 {
        mantissa /= 10;
        scale += 1;
    }
    if mantissa.unsigned_abs() >= 10u128.pow(MAX_DIGITS as u32) {
        return None;
    }
    Some((mantissa, i32::try_from(scale).ok()?))
}

fn pow10(exponent: i64) -> Option<i128> {
    /// 10^0 ..= 10^38, every power of ten an i128 holds.
    const POWERS: [i128; 39] = {
        let mut powers = [1i128; 39];
        let mut i = 1;
        while i < powers.len() {
            powers[i] = powers[i - 1] * 10;
            i += 1;
        }
        powers
    };
    POWERS.get(usize::try_from(exponent).ok()?).copied()
}

/// `value / 10^digits`, rounded away from zero (inf.RoundUp, negativeScaleInt64).
fn div_away_from_zero(value: i128, digits: i64) -> i128 {
    match pow10(digits) {
        Some(divisor) => {
            if let (Ok(v), Ok(d)) = (i64::try_from(value), i64::try_from(divisor)) {
                let quotient = v / d;
                let rounded = if v % d == 0 {
                    quotient
                } else {
                    quotient + v.signum()
                };
                return i128::from(rounded);
            }
            let quotient = value / divisor;
            if value % divisor == 0 {
                quotient
            } else {
                quotient + value.signum()
            }
        }
        None => value.signum(),
    }
}

/// `removeInt64Factors` / `removeBigIntFactors` (math.go).
fn remove_factors(mut value: i128, base: i128) -> (i128, u32) {
    let mut times = 0;
    while value != 0 && value % base == 0 {
        value /= base;
        times += 1;
    }
    (value, times)
}

/// The DecimalSI suffix for a power of ten (suffix.go). Kubernetes has none past `E` or below
/// `n` and then prints the bare number: `"1000E"` canonicalizes to `"1"` upstream, and so here.
fn decimal_suffix(exponent: i64) -> &'static str {
    match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    }
}

/// The BinarySI suffix for a power of 1024 (suffix.go); none past `Ei`, as upstream.
fn binary_suffix(times: u32) -> &'static str {
    match times {
        1 => "Ki",
        2 => "Mi",
        3 => "Gi",
        4 => "Ti",
        5 => "Pi",
        6 => "Ei",
        _ => "",
    }
}

struct Parts<'a> {
    positive: bool,
    /// Integer digits without leading zeros; `"0"` when there are none.
    num: &'a str,
    /// Fraction digits as written.
    denom: &'a str,
    suffix: &'a str,
    /// Whether the number part holds any digit (leading zeros count).
    has_digit: bool,
}

/// A port of `parseQuantityString` (quantity.go), quirks included: `"."`, `"+"` and `"m"` are
/// zero, `"1."` is one.
fn scan(input: &str) -> Option<Parts<'_>> {
    let bytes = input.as_bytes();
    let end = bytes.len();
    let slice = |from: usize, to: usize| input.get(from..to).unwrap_or("");
    let mut parts = Parts {
        positive: true,
        num: "0",
        denom: "",
        suffix: "",
        has_digit: false,
    };
    let mut pos = 0;
    match bytes.first() {
        Some(b'-') => {
            parts.positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    while pos < end && bytes.get(pos) == Some(&b'0') {
        pos += 1;
        parts.has_digit = true;
    }
    if pos >= end {
        // All zeros (or nothing after the sign): Go sets value = num = "0".
        parts.has_digit = true;
        return Some(parts);
    }
    let digits_end = digits_from(bytes, pos);
    parts.has_digit |= digits_end > pos;
    if digits_end > pos {
        parts.num = slice(pos, digits_end);
    }
    pos = digits_end;
    if pos >= end {
        return Some(parts);
    }
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        let denom_end = digits_from(bytes, pos);
        parts.denom = slice(pos, denom_end);
        parts.has_digit |= denom_end > pos;
        pos = denom_end;
        if pos >= end {
            return Some(parts);
        }
    }
    let suffix_start = pos;
    while pos < end && bytes.get(pos).is_some_and(|b| SUFFIX_CHARS.contains(b)) {
        pos += 1;
    }
    if matches!(bytes.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    if digits_from(bytes, pos) < end {
        return None; // "we encountered a non decimal in the Suffix loop"
    }
    parts.suffix = slice(suffix_start, end);
    Some(parts)
}

fn digits_from(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    at
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    Two,
    Ten,
}

/// `suffixHandler.interpret` (suffix.go). The exponent is parsed as an int64 and then narrowed
/// to int32 as Go's `int32(parsed)` does (so `e4294967297` is `e1` upstream, and here).
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
            let parsed: i64 = digits.parse().ok()?;
            Some((Base::Ten, parsed as i32, Format::DecimalExponent))
        }
    }
}

/// `|amount|` of a decimal quantity, rounded up to nano, as (mantissa, scale).
fn decimal_amount(num: &str, denom: &str, exponent: i32) -> Option<(i128, i64)> {
    let scale = i64::from(exponent) - denom.len() as i64;
    joined(num, denom, |digits| {
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Some((0, 0));
        }
        if scale >= NANO_SCALE {
            return digits_to_int(digits, scale);
        }
        // Digits finer than nano: keep the rest and round up if anything non-zero was dropped.
        let drop = usize::try_from(NANO_SCALE - scale).ok()?;
        if drop >= digits.len() {
            return Some((1, NANO_SCALE));
        }
        let (kept, dropped) = digits.split_at_checked(digits.len() - drop)?;
        let (mut mantissa, kept_scale) = digits_to_int(kept, NANO_SCALE)?;
        if dropped.bytes().any(|b| b != b'0') {
            // kept_scale > NANO_SCALE only when kept ended in zeros; bring it back to nano first.
            mantissa = mantissa.checked_mul(pow10(kept_scale - NANO_SCALE)?)?;
            return Some((mantissa.checked_add(1)?, NANO_SCALE));
        }
        Some((mantissa, kept_scale))
    })
}

/// `|amount|` of a binary quantity, rounded up to nano and capped at 2^63-1.
fn binary_amount(num: &str, denom: &str, exponent: i32) -> Option<(i128, i64)> {
    let shift = u32::try_from(exponent).ok()?;
    let whole = num.trim_start_matches('0');
    if whole.len() > 19 {
        return Some((MAX_ALLOWED, 0));
    }
    let whole_value: i128 = if whole.is_empty() {
        0
    } else if whole.len() <= MAX_INT64_FACTORS {
        i128::from(whole.parse::<i64>().ok()?)
    } else {
        whole.parse().ok()?
    };
    // whole < 10^19 < 2^64 and shift <= 60, so this cannot overflow.
    if whole_value
        .checked_shl(shift)
        .is_none_or(|v| v > MAX_ALLOWED)
    {
        return Some((MAX_ALLOWED, 0));
    }
    let fraction = denom.trim_end_matches('0');
    joined(whole, fraction, |digits| {
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Some((0, 0));
        }
        if digits.len() > MAX_DIGITS {
            return None;
        }
        let value: i128 = if digits.len() <= MAX_INT64_FACTORS {
            i128::from(digits.parse::<i64>().ok()?)
        } else {
            digits.parse().ok()?
        };
        let scaled = mul(value, 1i128.checked_shl(shift)?)?;
        // scaled × 10^-len(fraction), rounded up to nano.
        let fraction_digits = fraction.len() as i64;
        let (mantissa, scale) = if fraction_digits > -NANO_SCALE {
            (
                div_away_from_zero(scaled, fraction_digits + NANO_SCALE),
                NANO_SCALE,
            )
        } else {
            (scaled, -fraction_digits)
        };
        let limit = mul(MAX_ALLOWED, pow10(-scale)?)?;
        if mantissa > limit {
            return Some((MAX_ALLOWED, 0));
        }
        Some((mantissa, scale))
    })
}

/// `f(a + b)`, the two texts joined on the stack when they are short (amounts always are).
fn joined<R>(a: &str, b: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buffer = [0u8; 64];
    if let Some(both) = buffer.get_mut(..a.len() + b.len()) {
        let (first, second) = both.split_at_mut(a.len());
        first.copy_from_slice(a.as_bytes());
        second.copy_from_slice(b.as_bytes());
        if let Ok(text) = std::str::from_utf8(both) {
            return f(text);
        }
    }
    f(&[a, b].concat())
}

/// Parses decimal digits (no sign) into a mantissa with trailing zeros moved to the scale.
fn digits_to_int(digits: &str, scale: i64) -> Option<(i128, i64)> {
    let trimmed = digits.trim_end_matches('0');
    let scale = scale.checked_add((digits.len() - trimmed.len()) as i64)?;
    if trimmed.is_empty() {
        return Some((0, 0));
    }
    if trimmed.len() > MAX_DIGITS {
        return None;
    }
    let mantissa = if trimmed.len() <= MAX_INT64_FACTORS {
        i128::from(trimmed.parse::<i64>().ok()?)
    } else {
        trimmed.parse().ok()?
    };
    Some((mantissa, scale))
}

/// Whether `ParseQuantity` takes its int64 fast path (quantity.go): at most 18 digits at a
/// scale of nano or coarser; for binary suffixes no fraction, a precision estimate
/// `15 - len(num) - int32(float32(exponent)*3/10) - 1 >= 0` and a product that fits an int64.
fn takes_fast_path(parts: &Parts<'_>, base: Base, exponent: i32) -> bool {
    match base {
        Base::Ten => {
            let digits = parts.num.len() + parts.denom.len();
            let scale = i64::from(exponent) - parts.denom.len() as i64;
            digits <= MAX_INT64_FACTORS && scale >= NANO_SCALE
        }
        Base::Two => {
            let precision = 15 - parts.num.len() as i64 - i64::from(exponent) * 3 / 10 - 1;
            if !parts.denom.is_empty() || precision < 0 {
                return false;
            }
            parts
                .num
                .parse::<i64>()
                .ok()
                .and_then(|value| value.checked_mul(1i64 << exponent.clamp(0, 62)))
                .is_some()
        }
    }
}

/// Whether the fast path keeps the text as the string form, "if the number is in canonical
/// form": decimal text at a scale that is a multiple of 3 with no leading zero and no trailing
/// "000"; binary text whose number is not a multiple of 8.
fn keeps_written_form(parts: &Parts<'_>, base: Base, exponent: i32) -> bool {
    match base {
        Base::Ten => {
            let scale = i64::from(exponent) - parts.denom.len() as i64;
            scale % 3 == 0
                && joined(parts.num, parts.denom, |shifted| {
                    !shifted.ends_with("000") && !shifted.starts_with('0')
                })
        }
        Base::Two => parts
            .num
            .parse::<i64>()
            .is_ok_and(|value| value & 0x07 != 0),
    }
}

#[cfg(test)]
mod tests;
