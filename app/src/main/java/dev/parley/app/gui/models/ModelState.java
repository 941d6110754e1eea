package dev.parley.app.gui.models;

/** Where a model of the manager's list stands. */
public enum ModelState {
    /** In the catalog, not on this computer. */
    AVAILABLE,
    /** Downloading now. */
    DOWNLOADING,
    /** Partly downloaded: a resume continues from the bytes already on disk. */
    PAUSED,
    /** On this computer and ready to use. */
    INSTALLED
}
