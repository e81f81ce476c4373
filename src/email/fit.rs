//! The most papers a message can hold: found by trying counts, each try a whole render.

use anyhow::Result;

/// The largest `n` in `1..total` whose try (`try_n(n)`: what it made and its size) is at
/// most `limit`, with what that try made; `None` if no such `n`. `total` itself is over
/// the limit at `total_size`. Sizes grow with `n` about in proportion, so each guess is
/// where the line through the nearest tries meets the limit: a handful of renders where
/// halving took eleven at 2,000 papers. A guess that does not halve the range is followed
/// by a halving, so no size curve takes more than twice the halving's tries.
pub fn largest_fitting<T>(
    total: usize,
    total_size: usize,
    limit: usize,
    mut try_n: impl FnMut(usize) -> Result<(T, usize)>,
) -> Result<Option<(usize, T)>> {
    let (mut fits, mut over) = (0usize, total);
    let (mut fits_size, mut over_size) = (None::<usize>, total_size);
    let mut best = None;
    let mut halve = false;
    while fits + 1 < over {
        let guess = if halve {
            fits + (over - fits) / 2
        } else {
            // Through the origin until a count that fits is known.
            let (x0, y0) = (fits, fits_size.unwrap_or(0));
            let rise = over_size.saturating_sub(y0).max(1);
            x0 + (limit.saturating_sub(y0) * (over - x0)) / rise
        };
        let n = guess.clamp(fits + 1, over - 1);
        let before = over - fits;
        let (made, size) = try_n(n)?;
        if size <= limit {
            (fits, fits_size) = (n, Some(size));
            best = Some((n, made));
        } else {
            (over, over_size) = (n, size);
        }
        halve = !halve && (over - fits) * 2 > before;
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes by count.
    type Sizes = Box<dyn Fn(usize) -> usize>;

    /// Every count from 0 to `total` by trying each, for sizes `size(n)`.
    fn by_every_count(total: usize, limit: usize, size: &dyn Fn(usize) -> usize) -> Option<usize> {
        (1..total).rev().find(|&n| size(n) <= limit)
    }

    #[test]
    fn finds_the_count_trying_every_one_finds_in_few_tries() {
        let limit = 100_000;
        // Near-linear sizes (a header, lines of varying length), a step, and a curve.
        let cases: Vec<(usize, Sizes)> = vec![
            (2000, Box::new(|n| 4_000 + 480 * n + (n * 37 % 90))),
            (3000, Box::new(|n| 9_000 + 300 * n)),
            (500, Box::new(|n| if n < 420 { 50_000 } else { 150_000 })),
            (2000, Box::new(|n| 1_000 + n * n / 10)),
            (50, Box::new(|n| 120_000 + n)),
        ];
        for (total, size) in cases {
            let mut tries = 0;
            let found = largest_fitting(total, size(total), limit, |n| {
                tries += 1;
                Ok(((), size(n)))
            })
            .unwrap()
            .map(|(n, ())| n);
            assert_eq!(found, by_every_count(total, limit, &*size), "total {total}");
            let halvings = (total as f64).log2().ceil() as usize;
            assert!(tries <= 2 * halvings, "{tries} tries for {total}");
        }
        // Near-linear sizes: a few tries, not the eleven of halving.
        let mut tries = 0;
        largest_fitting(2000, 4_000 + 480 * 2000, limit, |n| {
            tries += 1;
            Ok(((), 4_000 + 480 * n + (n * 37 % 90)))
        })
        .unwrap();
        assert!(tries <= 5, "{tries} tries");
    }
}
