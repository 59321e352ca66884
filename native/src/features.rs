//! The seven feature schemas (spec/features.md), filled as `contract.features.extractors` fills them:
//! every value is an exact integer converted to float32, except the capture probabilities
//! (`count / 216.0` in double, rounded to float32) and the PDI columns (a float32 division by 5).

use crate::board::{Pos, KING, PAWN, QUEEN};
use crate::capture::capture_count;
use crate::movegen::{count_moves, is_attacked};
use crate::tables::{Bits, FILE_A};

/// The schemas by code (the order of `WIDTHS`): material-7-v1, rich-9-v1, rich-pdi-11-v1, kcp-13,
/// kcp-mobility-27-v1, kcp-mobility-pawns-31-v1, raw-board-768-v1.
pub const WIDTHS: [usize; 7] = [7, 9, 11, 13, 27, 31, 768];
pub const EXTRACTORS: [&str; 7] = [
    "OnnxFeatures",
    "RichFeatures",
    "RichPdiFeatures",
    "KcpFeatures",
    "KcpMobilityFeatures",
    "KcpMobilityPawnsFeatures",
    "RawBoardFeatures",
];

const KING_EXPOSURE_PENALTY: i32 = 2000;

const fn passed_spans() -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut sq = 0;
        while sq < 64 {
            let file = sq % 8;
            let rank = sq / 8;
            let mut span = FILE_A << file;
            if file > 0 {
                span |= FILE_A << (file - 1);
            }
            if file < 7 {
                span |= FILE_A << (file + 1);
            }
            let mut ahead = 0u64;
            let mut r = 0;
            while r < 8 {
                if (colour == 1 && r > rank) || (colour == 0 && r < rank) {
                    ahead |= 0xffu64 << (r * 8);
                }
                r += 1;
            }
            out[colour][sq] = span & ahead;
            sq += 1;
        }
        colour += 1;
    }
    out
}

static PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

#[inline(always)]
fn pdi(count: u32) -> f32 {
    count as f32 / 5.0f32
}

#[inline(always)]
fn probability(count: u32) -> f32 {
    (f64::from(count) / 216.0) as f32
}

fn material(p: &Pos, c: usize, out: &mut [f32]) {
    let own = &p.boards[c];
    let opp = &p.boards[1 - c];
    let diff = |t: usize| own[t].count_ones() as i32 - opp[t].count_ones() as i32;
    let (pw, n, b, r, q) = (diff(1), diff(2), diff(3), diff(4), diff(5));
    let total = (own[1] | opp[1]).count_ones() as i32
        + 3 * (own[2] | opp[2] | own[3] | opp[3]).count_ones() as i32
        + 5 * (own[4] | opp[4]).count_ones() as i32
        + 9 * (own[5] | opp[5]).count_ones() as i32;
    let values = [pw, n, b, r, q, pw + 3 * n + 3 * b + 5 * r + 9 * q, total];
    for (slot, v) in out.iter_mut().zip(values) {
        *slot = v as f32;
    }
}

fn moves_per_type(p: &Pos, c: usize) -> [u32; 7] {
    count_moves(&p.boards[c], &p.boards[1 - c], c == 1, p.castling, p.ep)
}

fn king_safety(p: &Pos, c: usize) -> i32 {
    let occupied = p.boards[0][0] | p.boards[1][0];
    let enemy = &p.boards[1 - c];
    for sq in Bits(p.boards[c][KING]) {
        if is_attacked(enemy, c == 0, sq, occupied) {
            return -KING_EXPOSURE_PENALTY;
        }
    }
    0
}

fn piece_diversity(p: &Pos, c: usize) -> u32 {
    (1..6).filter(|&t| p.boards[c][t] != 0).count() as u32
}

fn passed_pawns(p: &Pos, c: usize) -> (u32, u32) {
    let enemy_pawns = p.boards[1 - c][PAWN];
    let (mut count, mut best) = (0u32, 0u32);
    for sq in Bits(p.boards[c][PAWN]) {
        if PASSED_SPAN[c][sq] & enemy_pawns == 0 {
            count += 1;
            let rank = (sq >> 3) as u32;
            best = best.max(if c == 1 { rank } else { 7 - rank });
        }
    }
    (count, best)
}

/// Call `set` with each raw-board-768-v1 cell that is 1.0: plane x 64 + square seen from colour `c`.
pub fn raw_board_cells(p: &Pos, c: usize, mut set: impl FnMut(usize)) {
    let flip = if c == 1 { 0 } else { 56 };
    for (plane_base, side) in [(0usize, c), (6, 1 - c)] {
        for ptype in 1..7 {
            let base = (plane_base + ptype - 1) * 64;
            for sq in Bits(p.boards[side][ptype]) {
                set(base + (sq ^ flip));
            }
        }
    }
}

/// Fill `out` (exactly `WIDTHS[code]` values, all 0.0 on entry) with schema `code` of `p` from colour
/// `c` (1 = white). Only raw-board-768-v1 relies on the zeros (it writes its 1.0 cells only).
pub fn extract(code: usize, p: &Pos, c: usize, out: &mut [f32]) {
    if code == 6 {
        raw_board_cells(p, c, |cell| out[cell] = 1.0);
        return;
    }
    material(p, c, &mut out[..7]);
    if code == 0 {
        return;
    }
    let own_moves = moves_per_type(p, c);
    let opp_moves = moves_per_type(p, 1 - c);
    let mobility = |m: &[u32; 7]| m.iter().sum::<u32>() as i32;
    out[7] = (mobility(&own_moves) - mobility(&opp_moves)) as f32;
    out[8] = (king_safety(p, c) - king_safety(p, 1 - c)) as f32;
    if code == 1 {
        return;
    }
    let own_pdi = pdi(piece_diversity(p, c));
    let opp_pdi = pdi(piece_diversity(p, 1 - c));
    if code == 2 {
        out[9] = own_pdi;
        out[10] = opp_pdi;
        return;
    }
    let white = c == 1;
    let counts = [
        capture_count(&p.boards, p.castling, p.ep, !white, KING),
        capture_count(&p.boards, p.castling, p.ep, white, KING),
        capture_count(&p.boards, p.castling, p.ep, !white, QUEEN),
        capture_count(&p.boards, p.castling, p.ep, white, QUEEN),
    ];
    for (i, count) in counts.into_iter().enumerate() {
        out[9 + i] = probability(count);
    }
    if code == 3 {
        return;
    }
    for t in 1..7 {
        out[12 + t] = own_moves[t] as f32;
        out[18 + t] = opp_moves[t] as f32;
    }
    out[25] = own_pdi;
    out[26] = opp_pdi;
    if code == 4 {
        return;
    }
    let (own_count, own_best) = passed_pawns(p, c);
    let (opp_count, opp_best) = passed_pawns(p, 1 - c);
    out[27] = own_count as f32;
    out[28] = opp_count as f32;
    out[29] = own_best as f32;
    out[30] = opp_best as f32;
}
