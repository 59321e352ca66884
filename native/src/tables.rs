//! Attack tables and rank/file masks (LERF squares, a1 = 0), with the geometry of python-chess's
//! `BB_*` tables that the Python reference reads.

pub const FULL: u64 = u64::MAX;
pub const RANK_1: u64 = 0xff;
pub const RANK_2: u64 = RANK_1 << 8;
pub const RANK_3: u64 = RANK_1 << 16;
pub const RANK_4: u64 = RANK_1 << 24;
pub const RANK_5: u64 = RANK_1 << 32;
pub const RANK_6: u64 = RANK_1 << 40;
pub const RANK_7: u64 = RANK_1 << 48;
pub const RANK_8: u64 = RANK_1 << 56;
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let rank = (sq / 8) as i32;
        let file = (sq % 8) as i32;
        let mut bb = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let r = rank + deltas[i].0;
            let f = file + deltas[i].1;
            if r >= 0 && r < 8 && f >= 0 && f < 8 {
                bb |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        out[sq] = bb;
        sq += 1;
    }
    out
}

pub static KNIGHT_ATTACKS: [u64; 64] =
    step_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
pub static KING_ATTACKS: [u64; 64] =
    step_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
/// `PAWN_ATTACKS[colour][square]`, colour 1 = white (python-chess's `BB_PAWN_ATTACKS`).
pub static PAWN_ATTACKS: [[u64; 64]; 2] = [step_table(&[(-1, -1), (-1, 1)]), step_table(&[(1, -1), (1, 1)])];

// Rays: 0 N, 1 E, 2 NE, 3 NW (increasing squares), 4 S, 5 W, 6 SW, 7 SE (decreasing squares).
const DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1)];

const fn ray_tables() -> [[u64; 64]; 8] {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut r = (sq / 8) as i32 + DIRS[d].0;
            let mut f = (sq % 8) as i32 + DIRS[d].1;
            let mut bb = 0u64;
            while r >= 0 && r < 8 && f >= 0 && f < 8 {
                bb |= 1u64 << (r * 8 + f);
                r += DIRS[d].0;
                f += DIRS[d].1;
            }
            out[d][sq] = bb;
            sq += 1;
        }
        d += 1;
    }
    out
}

static RAYS: [[u64; 64]; 8] = ray_tables();

/// The ray from `sq` in direction `d` up to and including its first blocker in `occ`. Without a branch:
/// a sentinel bit on the last square of the scan order (h8 for the increasing directions, a1 for the
/// decreasing ones) stands for "no blocker", and no ray leaves that square in those directions.
#[inline(always)]
fn ray(d: usize, sq: usize, occ: u64) -> u64 {
    let r = RAYS[d][sq];
    let blockers = r & occ;
    let first = if d < 4 { (blockers | 1 << 63).trailing_zeros() } else { 63 - (blockers | 1).leading_zeros() };
    r ^ RAYS[d][first as usize]
}

/// The diagonal attacks of a square with this occupancy (`DIAG_ATTACKS[sq][occ & DIAG_MASKS[sq]]`).
#[inline(always)]
pub fn diag(sq: usize, occ: u64) -> u64 {
    ray(2, sq, occ) | ray(3, sq, occ) | ray(6, sq, occ) | ray(7, sq, occ)
}

/// Rank and file attacks (`RANK_ATTACKS | FILE_ATTACKS`).
#[inline(always)]
pub fn line(sq: usize, occ: u64) -> u64 {
    ray(0, sq, occ) | ray(1, sq, occ) | ray(4, sq, occ) | ray(5, sq, occ)
}

const fn between_table() -> [[u64; 64]; 64] {
    let mut out = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut r = (a / 8) as i32 + DIRS[d].0;
            let mut f = (a % 8) as i32 + DIRS[d].1;
            let mut acc = 0u64;
            while r >= 0 && r < 8 && f >= 0 && f < 8 {
                let b = (r * 8 + f) as usize;
                out[a][b] = acc;
                acc |= 1u64 << b;
                r += DIRS[d].0;
                f += DIRS[d].1;
            }
            d += 1;
        }
        a += 1;
    }
    out
}

/// Squares strictly between two aligned squares, 0 otherwise (python-chess's `between`).
pub static BETWEEN: [[u64; 64]; 64] = between_table();

const fn knight_distances() -> [[u8; 64]; 64] {
    let mut out = [[99u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        out[a][a] = 0;
        let mut depth = 0u8;
        let mut changed = true;
        while changed {
            changed = false;
            let mut sq = 0;
            while sq < 64 {
                if out[a][sq] == depth {
                    let mut t = KNIGHT_ATTACKS[sq];
                    while t != 0 {
                        let to = t.trailing_zeros() as usize;
                        t &= t - 1;
                        if out[a][to] == 99 {
                            out[a][to] = depth + 1;
                            changed = true;
                        }
                    }
                }
                sq += 1;
            }
            depth += 1;
        }
        a += 1;
    }
    out
}

pub static KNIGHT_DISTANCE: [[u8; 64]; 64] = knight_distances();

/// Iterate the set bits of a bitboard in ascending order.
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attacks by stepping square by square until a blocker, for every square and direction.
    fn stepped(sq: usize, occ: u64, diagonal: bool) -> u64 {
        let dirs: &[(i32, i32)] = if diagonal { &[(1, 1), (1, -1), (-1, 1), (-1, -1)] } else { &[(1, 0), (-1, 0), (0, 1), (0, -1)] };
        let mut out = 0u64;
        for &(dr, df) in dirs {
            let (mut r, mut f) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + df);
            while (0..8).contains(&r) && (0..8).contains(&f) {
                let bit = 1u64 << (r * 8 + f);
                out |= bit;
                if occ & bit != 0 {
                    break;
                }
                r += dr;
                f += df;
            }
        }
        out
    }

    #[test]
    fn slider_attacks_equal_stepping_on_every_square() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut occupancies = vec![0, u64::MAX, 1, 1 << 63, RANK_1, FILE_A, FILE_H, RANK_8];
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            occupancies.push(state & (state >> 3)); // sparser boards too
            occupancies.push(state);
        }
        for sq in 0..64 {
            for &occ in &occupancies {
                assert_eq!(diag(sq, occ), stepped(sq, occ, true), "diag {sq} {occ:#x}");
                assert_eq!(line(sq, occ), stepped(sq, occ, false), "line {sq} {occ:#x}");
            }
        }
    }
}
