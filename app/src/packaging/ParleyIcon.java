import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Arc2D;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import javax.imageio.ImageIO;

/**
 * Draws Parley's icon (a speech bubble with sound waves on a rounded square) as a PNG, so the repository holds
 * only this source: {@code java -Djava.awt.headless=true packaging/ParleyIcon.java OUT.png [SIZE]}.
 */
public final class ParleyIcon {
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: java ParleyIcon.java OUT.png [SIZE]");
            System.exit(2);
        }
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.scale(size / 256.0, size / 256.0);

        // Background: a rounded square, blue to teal.
        g.setPaint(new GradientPaint(0, 0, new Color(0x1F, 0x6F, 0xEB), 256, 256, new Color(0x0E, 0xA5, 0x9B)));
        g.fill(new RoundRectangle2D.Double(8, 8, 240, 240, 56, 56));

        // A speech bubble with a tail at the lower left.
        Path2D bubble = new Path2D.Double();
        bubble.append(new RoundRectangle2D.Double(40, 52, 150, 112, 44, 44), false);
        Path2D tail = new Path2D.Double();
        tail.moveTo(70, 150);
        tail.lineTo(56, 196);
        tail.lineTo(108, 160);
        tail.closePath();
        g.setColor(Color.WHITE);
        g.fill(bubble);
        g.fill(tail);

        // A level meter inside the bubble: five bars, like a voice.
        g.setColor(new Color(0x1F, 0x6F, 0xEB));
        int[] heights = {28, 56, 76, 48, 24};
        for (int i = 0; i < heights.length; i++) {
            double x = 68 + i * 20;
            double h = heights[i];
            g.fill(new RoundRectangle2D.Double(x, 108 - h / 2, 12, h, 12, 12));
        }

        // Sound waves to the right of the bubble.
        g.setColor(Color.WHITE);
        g.setStroke(new BasicStroke(11, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        for (int i = 0; i < 2; i++) {
            double r = 20 + i * 20;
            g.draw(new Arc2D.Double(190 - r, 108 - r, 2 * r, 2 * r, -40, 80, Arc2D.OPEN));
        }
        g.dispose();
        File out = new File(args[0]);
        if (out.getParentFile() != null) {
            out.getParentFile().mkdirs();
        }
        ImageIO.write(img, "png", out);
    }
}
