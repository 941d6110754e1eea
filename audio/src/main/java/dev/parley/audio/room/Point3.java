package dev.parley.audio.room;

/** A position in a room, in metres from the corner at the origin. */
public record Point3(double x, double y, double z) {
    public Point3 {
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            throw new IllegalArgumentException("expected finite coordinates but found (" + x + ", " + y + ", " + z + ")");
        }
    }

    /** Euclidean distance to {@code o}, in metres. */
    public double distanceTo(Point3 o) {
        double dx = x - o.x;
        double dy = y - o.y;
        double dz = z - o.z;
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
}
