// The drawing of one card, and the spacing of the pyramid: the one source of both drawings of the
// cards, the site's pictures (generator/render/svg.py, at build time) and the game's board
// (app/ui/board.js, in the browser). Pure data, no code: board.js imports it as a module (the page
// fetches nothing else, offline too), svg.py reads the object below as JSON
// (generator/render/card_drawing.py). So the object is strict JSON: keys and strings in double
// quotes, no comments inside it, no trailing commas; the build stops on anything else.
//
// SVG user units. A card is drawn in its own box, 0..width x 0..height: "x"/"y" are from its top
// left corner; "short"/"long" are for a rank index of one letter ("A", "7") or more ("10").
// "suits": the suit symbols as paths in a 100 x 100 box (never font glyphs: no emoji, the same
// everywhere); "badge": the round check (free card) and cross (card just removed) at the bottom
// right, their marks drawn in a 24 x 24 box round 0,0.
export const CARD_DRAWING = {
  "card": {"width": 100, "height": 140, "radius": 9},
  "pyramid": {"gap": 6, "row_step": 66, "pad": 8},
  "rank": {"y": 45, "short_x": 25, "long_x": 6},
  "corner_pip": {"y": 14, "size": 28, "short_x": 47, "long_x": 60},
  "centre_pip": {"x": 22, "y": 64, "size": 56},
  "badge": {"inset": 17, "r": 13,
            "check": "M-6 0.5L-1.5 5L6.5 -4.5",
            "cross": "M-5 -5L5 5M5 -5L-5 5"},
  "back": {"inset": 8, "inner_radius": 5, "count_dy": 16},
  "place": {"inset": 2},
  "suits": {
    "S": "M50 3C38 20 4 40 4 64C4 79 15 88 28 88C37 88 44 83 47 77C46 87 41 93 32 98H68C59 93 54 87 53 77C56 83 63 88 72 88C85 88 96 79 96 64C96 40 62 20 50 3Z",
    "H": "M50 94C38 80 4 58 4 31C4 15 16 4 30 4C40 4 47 10 50 19C53 10 60 4 70 4C84 4 96 15 96 31C96 58 62 80 50 94Z",
    "D": "M50 2Q66 28 88 50Q66 72 50 98Q34 72 12 50Q34 28 50 2Z",
    "C": "M30 26A20 20 0 1 0 70 26A20 20 0 1 0 30 26ZM6 60A20 20 0 1 0 46 60A20 20 0 1 0 6 60ZM54 60A20 20 0 1 0 94 60A20 20 0 1 0 54 60ZM38 50A12 12 0 1 0 62 50A12 12 0 1 0 38 50ZM47 62C47 80 42 91 32 98H68C58 91 53 80 53 62Z"
  }
};
