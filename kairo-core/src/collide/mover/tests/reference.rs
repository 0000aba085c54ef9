//! Seed 000's routine, ported line by line in its own units (24.8 fixed point, 16 px blocks,
//! its tile codes: 0 empty, 1 solid, 3 ladder, 4 ice, 0x8-0xB rising and 0xC-0xF falling 1:4
//! slope parts), as the yardstick the mover is compared with.

pub const GROUND: i32 = 0;
pub(crate) const LADDER: i32 = 2;

const BITSHIFT: i32 = 12;

pub(crate) struct RectV {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
    pub vx: i32,
    pub vy: i32,
}

/// A map of article tile codes; outside it, `outside(x)` decides (walls at the sides).
pub struct Map {
    pub cols: i32,
    pub rows: i32,
    pub codes: Vec<u8>,
}

impl Map {
    fn get(&self, x: i32, y: i32) -> u8 {
        if x < 0 || x >= self.cols {
            return 1;
        }
        if y < 0 || y >= self.rows {
            return 0;
        }
        self.codes[(y * self.cols + x) as usize]
    }
}

#[allow(clippy::too_many_arguments)]
fn height_line2(
    map: &Map,
    ileft: i32,
    icenter: i32,
    iright: i32,
    iy: i32,
    low_center: i32,
    stand: &mut u8,
    flag_ladder: bool,
) -> i32 {
    let b = map.get(icenter, iy);
    *stand = b;
    if (b & 0xC) == 0xC {
        let cc = low_center + ((i32::from(b & 0x3)) << BITSHIFT);
        return cc >> 2;
    } else if (b & 0xC) == 0x8 {
        let cc = low_center + ((i32::from(b & 0x3)) << BITSHIFT);
        return 0x1000 - (cc >> 2);
    } else if b == 0x3 {
        if flag_ladder && map.get(icenter, iy - 1) != 0x3 {
            return 0;
        }
    } else if b != 0 {
        return 0;
    }
    let mut i = icenter - 1;
    while i >= ileft {
        let b = map.get(i, iy);
        if (b & 0x8) == 0x8 {
            if b == 0xB {
                *stand = b;
                return 0;
            }
        } else if b == 0x3 {
            if flag_ladder && map.get(i, iy - 1) != 0x3 {
                *stand = b;
                return 0;
            }
        } else if b != 0 {
            *stand = b;
            return 0;
        }
        i -= 1;
    }
    for i in icenter + 1..=iright {
        let b = map.get(i, iy);
        if (b & 0x8) == 0x8 {
            if b == 0xC {
                *stand = b;
                return 0;
            }
        } else if b == 0x3 {
            if flag_ladder && map.get(i, iy - 1) != 0x3 {
                *stand = b;
                return 0;
            }
        } else if b != 0 {
            *stand = b;
            return 0;
        }
    }
    *stand = 0;
    0x1000
}

/// `Move2`: returns the article's flag bits (0 wall left, 1 wall right, 2 ground,
/// 3 ceiling, 4 ladder top, 5 ice).
pub(crate) fn move2(map: &Map, rc: &mut RectV, mode: i32) -> i32 {
    let mut returnvalue = 0;
    let org_x = rc.x;
    let org_y = rc.y;
    let mut maptop = rc.y >> BITSHIFT;
    let mapbtm = (rc.y + rc.h - 1) >> BITSHIFT;
    let mut mapcenter = (rc.x + rc.w / 2) >> BITSHIFT;
    let mut lr_chkbtm = mapbtm;
    if rc.vx > 0 {
        let b = map.get(mapcenter, mapbtm);
        if (b & 0x8) == 0x8 || b == 1 {
            lr_chkbtm -= 1;
        }
        rc.x += rc.vx;
        let mapright2 = (rc.x + rc.w - 1) >> BITSHIFT;
        for i in maptop..=lr_chkbtm {
            let b = map.get(mapright2, i);
            if b == 1 || b == 0xC {
                rc.x = (mapright2 << BITSHIFT) - rc.w;
                returnvalue = 2;
                break;
            }
        }
    } else if rc.vx < 0 {
        let b = map.get(mapcenter, mapbtm);
        if (b & 0x8) == 0x8 || b == 1 {
            lr_chkbtm -= 1;
        }
        rc.x += rc.vx;
        let mapleft2 = rc.x >> BITSHIFT;
        for i in maptop..=lr_chkbtm {
            let b = map.get(mapleft2, i);
            if b == 1 || b == 0xB {
                rc.x = (mapleft2 + 1) << BITSHIFT;
                returnvalue = 1;
                break;
            }
        }
    }
    let mapleft = rc.x >> BITSHIFT;
    let mapright = (rc.x + rc.w - 1) >> BITSHIFT;
    mapcenter = (rc.x + rc.w / 2) >> BITSHIFT;
    rc.y += rc.vy;
    maptop = rc.y >> BITSHIFT;
    for i in mapleft..=mapright {
        let b = map.get(i, maptop);
        if b == 1 || (b & 0x8) != 0 {
            rc.y = (maptop + 1) << BITSHIFT;
            returnvalue |= 8;
            break;
        }
    }
    let mut ride = 0u8;
    let low_center = (rc.x + rc.w / 2) & 0xFFF;
    let mut miny = height_line2(
        map,
        mapleft,
        mapcenter,
        mapright,
        mapbtm,
        low_center,
        &mut ride,
        mode == GROUND,
    );
    if miny == 0x1000 {
        miny = height_line2(
            map,
            mapleft,
            mapcenter,
            mapright,
            mapbtm + 1,
            low_center,
            &mut ride,
            true,
        );
        miny += ((mapbtm + 1) << BITSHIFT) - rc.h;
    } else if miny == 0 {
        miny = height_line2(
            map,
            mapleft,
            mapcenter,
            mapright,
            mapbtm - 1,
            low_center,
            &mut ride,
            false,
        );
        miny += ((mapbtm - 1) << BITSHIFT) - rc.h;
    } else {
        miny += (mapbtm << BITSHIFT) - rc.h;
    }
    if mode == GROUND {
        if rc.y > miny - 0x400 {
            rc.y = miny;
            returnvalue |= 4;
            if ride == 0x3 {
                returnvalue |= 16;
            }
        }
    } else if mode == LADDER {
        if rc.y >= miny && ride != 0x3 {
            rc.y = miny;
            returnvalue |= 4;
        }
    } else if rc.y >= miny {
        rc.y = miny;
        returnvalue |= 4;
        if ride == 0x3 {
            returnvalue |= 16;
        }
    }
    if ride == 0x4 {
        returnvalue |= 32;
    }
    rc.vx = rc.x - org_x;
    rc.vy = rc.y - org_y;
    returnvalue
}
