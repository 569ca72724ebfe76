//! When an assignment is due and what a late submission costs: the spec's `[deadline]`,
//! `--due` and `--late-penalty` (which override it).

use chrono::{DateTime, FixedOffset, Local, NaiveDateTime, TimeZone};

/// A point in time read from a due date or an LMS's submission time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment(DateTime<FixedOffset>);

impl Moment {
    /// `2026-10-01T23:59`, with seconds and fractions if wanted, `T` or a space between date
    /// and time, and an offset (`Z`, `-04:00`, `-0400`, also after a space as Ruby's YAML
    /// writes it). Without an offset the time is the machine's local time.
    pub fn parse(text: &str) -> Result<Moment, String> {
        let wrong = || {
            format!(
                "'{text}' is not a date and time like 2026-10-01T23:59 (an offset such as -04:00 or Z may follow)"
            )
        };
        let trimmed = text.trim();
        let (date, rest) = trimmed.split_once(['T', ' ']).ok_or_else(wrong)?;
        let rest = rest.trim();
        let zone_at = rest.find(['Z', '+', '-']).unwrap_or(rest.len());
        let (time, zone) = rest.split_at(zone_at);
        let time = time.trim();
        let time = if time.len() == 5 {
            format!("{time}:00")
        } else {
            time.to_string()
        };
        let naive =
            NaiveDateTime::parse_from_str(&format!("{date}T{time}"), "%Y-%m-%dT%H:%M:%S%.f")
                .map_err(|_| wrong())?;
        let zone = zone.trim();
        if zone.is_empty() {
            return Local
                .from_local_datetime(&naive)
                .earliest()
                .map(|local| Moment(local.fixed_offset()))
                .ok_or_else(|| format!("'{text}' does not exist in this machine's time zone"));
        }
        let offset = if zone == "Z" {
            Some(0)
        } else {
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let digits: String = zone[1..].chars().filter(|c| *c != ':').collect();
            match (digits.len(), digits.parse::<i32>()) {
                (2, Ok(hours)) => Some(sign * hours * 3600),
                (4, Ok(both)) => Some(sign * ((both / 100) * 3600 + (both % 100) * 60)),
                _ => None,
            }
        };
        offset
            .and_then(FixedOffset::east_opt)
            .and_then(|offset| offset.from_local_datetime(&naive).single())
            .map(Moment)
            .ok_or_else(wrong)
    }

    pub fn now() -> Moment {
        Moment(Local::now().fixed_offset())
    }

    /// Whole days from `due` to this moment, any part of a day counting as a day; 0 when
    /// this moment is not after it.
    pub fn days_after(self, due: Moment) -> u32 {
        let seconds = (self.0 - due.0).num_seconds();
        if seconds <= 0 {
            0
        } else {
            u32::try_from((seconds + 86_399) / 86_400).unwrap_or(u32::MAX)
        }
    }

    /// RFC 3339, for reports.
    pub fn text(self) -> String {
        self.0.to_rfc3339()
    }
}

/// A late policy: a share of the points possible taken per day late (any part of a day
/// counts), up to a cap, or once for any late submission.
#[derive(Debug, Clone, PartialEq)]
pub struct LatePolicy {
    /// The share taken (per day, or once), 0 to 1.
    pub share: f64,
    pub per_day: bool,
    /// The most a per-day penalty takes, 0 to 1.
    pub cap: f64,
    /// As written (`10%/day,cap=50%`).
    pub text: String,
}

impl LatePolicy {
    /// `10%/day`, `10%/day,cap=50%` or `25%` (shares of the points possible).
    pub fn parse(text: &str) -> Result<LatePolicy, String> {
        let wrong = || {
            format!(
                "'{text}' is not a late penalty like 10%/day, 10%/day,cap=50% or 25% (a flat share)"
            )
        };
        let share_of = |part: &str| -> Option<f64> {
            let value: f64 = part.trim().strip_suffix('%')?.trim().parse().ok()?;
            (value.is_finite() && (0.0..=100.0).contains(&value)).then_some(value / 100.0)
        };
        let mut parts = text.split(',');
        let first = parts.next().unwrap_or("").trim();
        let (share, per_day) = match first.strip_suffix("/day") {
            Some(share) => (share_of(share).ok_or_else(wrong)?, true),
            None => (share_of(first).ok_or_else(wrong)?, false),
        };
        let mut cap = 1.0;
        for part in parts {
            let value = part.trim().strip_prefix("cap=").ok_or_else(wrong)?;
            if !per_day {
                return Err(format!(
                    "'{text}': a cap is for a per-day penalty (10%/day,cap=50%)"
                ));
            }
            cap = share_of(value).ok_or_else(wrong)?;
        }
        Ok(LatePolicy {
            share,
            per_day,
            cap,
            text: text.trim().to_string(),
        })
    }

    /// The share of the points possible taken from a submission `days` late (`None`: late
    /// by an unknown time, which only a flat share can price).
    pub fn share_for(&self, days: Option<u32>) -> Option<f64> {
        if !self.per_day {
            return Some(self.share);
        }
        let days = days?;
        Some((self.share * f64::from(days)).min(self.cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_with_offsets_compare_across_zones() {
        let due = Moment::parse("2026-10-01T23:59-04:00").expect("parses");
        let same = Moment::parse("2026-10-02 03:59:00.000000000 +00:00").expect("parses");
        assert_eq!(due, same);
        let utc = Moment::parse("2026-10-02T03:59Z").expect("parses");
        assert_eq!(due, utc);
        assert_eq!(
            Moment::parse("2026-10-02T04:00-0000").map(|m| m.days_after(due)),
            Ok(1)
        );
        assert_eq!(
            Moment::parse("2026-10-04T03:58Z").map(|m| m.days_after(due)),
            Ok(2)
        );
        assert_eq!(
            Moment::parse("2026-10-04T03:59:01Z").map(|m| m.days_after(due)),
            Ok(3)
        );
        assert_eq!(
            Moment::parse("2026-10-01T12:00-04:00").map(|m| m.days_after(due)),
            Ok(0)
        );
        assert!(Moment::parse("2026-10-01").is_err());
        assert!(Moment::parse("yesterday at noon").is_err());
        assert!(Moment::parse("2026-10-01T23:59+25").is_err());
        assert!(Moment::parse("2026-10-01T23:59").is_ok());
    }

    #[test]
    fn penalties_per_day_stop_at_the_cap_and_a_flat_share_needs_no_days() {
        let policy = LatePolicy::parse("10%/day,cap=25%").expect("parses");
        assert_eq!(policy.share_for(Some(1)), Some(0.1));
        assert_eq!(policy.share_for(Some(5)), Some(0.25));
        assert_eq!(policy.share_for(None), None);
        let flat = LatePolicy::parse("20%").expect("parses");
        assert_eq!(flat.share_for(None), Some(0.2));
        assert_eq!(flat.share_for(Some(9)), Some(0.2));
        for wrong in [
            "10",
            "10%/week",
            "110%/day",
            "20%,cap=10%",
            "10%/day,max=5%",
        ] {
            assert!(LatePolicy::parse(wrong).is_err(), "{wrong}");
        }
    }
}
