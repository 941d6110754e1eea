package dev.parley.audio.room;

/** A rectangular room: width (x), depth (y) and height (z) in metres. */
public record Shoebox(double width, double depth, double height) {
    public Shoebox {
        if (!(width >= 1 && depth >= 1 && height >= 1 && width <= 100 && depth <= 100 && height <= 30)) {
            throw new IllegalArgumentException("expected room dimensions of 1-100 m (height 1-30 m) but found "
                    + width + " x " + depth + " x " + height);
        }
    }

    public double volume() {
        return width * depth * height;
    }

    public double surface() {
        return 2 * (width * depth + width * height + depth * height);
    }

    /** Whether {@code p} lies inside the room, at least {@code margin} metres from every wall. */
    public boolean contains(Point3 p, double margin) {
        return p.x() >= margin && p.y() >= margin && p.z() >= margin
                && p.x() <= width - margin && p.y() <= depth - margin && p.z() <= height - margin;
    }
}
