pi = 3.14159265359

buttons = {
    mask = {
        left       = 0B000001,
        right      = 0B000010,
        up         = 0B000100,
        down       = 0B001000,
        left_up    = 0B000101,
        right_up   = 0B000110,
        left_down  = 0B001001,
        right_down = 0B001010,
    },

    o = 4,
    x = 5,
}

colors = {
    black = 0,
    dark_blue = 1,
    dark_purple = 2,
    dark_green = 3,
    brown = 4,
    dark_grey = 5,
    light_grey = 6,
    white = 7,
    red = 8,
    orange = 9,
    yellow = 10,
    green = 11,
    blue = 12,
    lavender = 13,
    pink = 14,
    light_peach = 15,
}
