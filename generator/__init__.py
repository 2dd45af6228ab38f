"""Site generator for the Pyramid solitaire rules site (nb/da): pages and inline SVG pictures."""
