package dev.parley.engine.tokenizer;

import java.util.Arrays;

/** A growable list of ints without boxing, for token ids. */
final class IntList {

    private int[] data = new int[16];
    private int size;

    void add(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = value;
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
