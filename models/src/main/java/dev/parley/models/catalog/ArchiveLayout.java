package dev.parley.models.catalog;

/**
 * How a downloaded archive unpacks: its format (only {@code zip}) and the single top folder that holds the model.
 */
public record ArchiveLayout(String format, String topFolder) {
    public ArchiveLayout {
        if (!"zip".equals(format)) {
            throw new IllegalArgumentException("expected archive format 'zip' but found '" + format + "'");
        }
        if (topFolder == null || topFolder.isBlank() || topFolder.contains("/") || topFolder.contains("\\")
                || topFolder.equals("..") || topFolder.equals(".")) {
            throw new IllegalArgumentException("expected a plain folder name as archive topFolder but found '"
                    + topFolder + "'");
        }
    }
}
