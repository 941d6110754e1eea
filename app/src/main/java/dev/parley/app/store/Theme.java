package dev.parley.app.store;

/** The window's colour scheme. */
public enum Theme {
    LIGHT, DARK
}
