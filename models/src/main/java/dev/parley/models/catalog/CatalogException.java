package dev.parley.models.catalog;

/** The catalog file is unreadable or an entry is invalid (bad input); the message names the entry and the field. */
public final class CatalogException extends IllegalArgumentException {
    public CatalogException(String message) {
        super(message);
    }

    public CatalogException(String message, Throwable cause) {
        super(message, cause);
    }
}
