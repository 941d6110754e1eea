package dev.parley.engine.sampling;

import java.util.random.RandomGenerator;

/**
 * The working set of a sampler chain: candidate token ids with their (modified) logits. Filled
 * from a logits vector in id order, then narrowed by the stages. Buffers are reused between calls,
 * so one instance serves one sampler on one thread.
 *
 * <p>Order between equal logits is by lower id first, so every stage is deterministic.
 */
final class Candidates {
    private static final int FIRST_TOP_P_GUESS = 64;

    private int[] ids = new int[0];
    private float[] logits = new float[0];
    private int size;
    /** True when entries are in descending order (by logit, then ascending id). */
    private boolean sorted;
    /** True while entry i holds token i (after {@link #fill}, before any narrowing). */
    private boolean identity;

    /** Loads every token of {@code source}, in id order. */
    void fill(float[] source) {
        if (source.length == 0) {
            throw new IllegalArgumentException("cannot sample from an empty logits vector");
        }
        if (ids.length < source.length) {
            ids = new int[source.length];
            logits = new float[source.length];
        }
        for (int i = 0; i < source.length; i++) {
            ids[i] = i;
        }
        System.arraycopy(source, 0, logits, 0, source.length);
        size = source.length;
        sorted = false;
        identity = true;
    }

    int size() {
        return size;
    }

    int id(int index) {
        return ids[index];
    }

    float logit(int index) {
        return logits[index];
    }

    /** Replaces the logit of token {@code id}; only valid before the set is narrowed or reordered. */
    void setLogitOfToken(int id, float value) {
        if (!identity) {
            throw new IllegalStateException("token logits can only be changed before the candidates are narrowed");
        }
        logits[id] = value;
    }

    /** The argmax of a raw vector: highest logit, lowest id on ties. */
    static int argmax(float[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("cannot sample from an empty logits vector");
        }
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }

    /** The token with the highest logit (lowest id on ties). */
    int argmax() {
        int best = 0;
        for (int i = 1; i < size; i++) {
            if (better(i, best)) {
                best = i;
            }
        }
        return ids[best];
    }

    /** Keeps the {@code k} highest logits, sorted descending (no full sort: a size-k heap). */
    void keepTopK(int k) {
        if (k <= 0 || k >= size) {
            return;
        }
        moveTopToFront(k);
        size = k;
        sorted = true;
        identity = false;
    }

    /**
     * Keeps the smallest prefix of the most likely tokens whose softmax probability sums to at least
     * {@code p} (llama.cpp's top-p, at least one token). Selects a growing number of leaders instead
     * of sorting the whole vocabulary.
     */
    void keepTopP(float p) {
        if (p >= 1f || size <= 1) {
            return;
        }
        float max = maxLogit();
        double z = 0;
        for (int i = 0; i < size; i++) {
            z += Math.exp(logits[i] - max);
        }
        int m = sorted ? size : Math.min(size, FIRST_TOP_P_GUESS);
        while (true) {
            if (!sorted) {
                moveTopToFront(m);
            }
            double cumulative = 0;
            for (int i = 0; i < m; i++) {
                cumulative += Math.exp(logits[i] - max) / z;
                if (cumulative >= p) {
                    size = i + 1;
                    sorted = true;
                    identity = false;
                    return;
                }
            }
            if (m == size) {
                sorted = true;
                identity = false;
                return; // rounding left the sum just below p: keep everything
            }
            m = m >= 1024 ? size : (int) Math.min(size, 16L * m); // a flat distribution: soon sort it all
        }
    }

    /** Drops tokens whose probability is below {@code minP} times the top one; keeps the order. */
    void keepMinP(float minP) {
        if (minP <= 0f || size <= 1) {
            return;
        }
        double threshold = maxLogit() + Math.log(minP);
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (logits[i] >= threshold) {
                ids[kept] = ids[i];
                logits[kept] = logits[i];
                kept++;
            }
        }
        if (kept != size) {
            identity = false;
        }
        size = kept;
    }

    /** Divides every logit by {@code temperature} (> 0). */
    void scale(float temperature) {
        if (temperature == 1f) {
            return;
        }
        for (int i = 0; i < size; i++) {
            logits[i] /= temperature;
        }
    }

    /** Draws a token with probability softmax(logits) over the current set. */
    int draw(RandomGenerator rng) {
        if (size == 1) {
            return ids[0];
        }
        float max = maxLogit();
        double z = 0;
        for (int i = 0; i < size; i++) {
            z += Math.exp(logits[i] - max);
        }
        double target = rng.nextDouble() * z;
        double cumulative = 0;
        for (int i = 0; i < size; i++) {
            cumulative += Math.exp(logits[i] - max);
            if (target < cumulative) {
                return ids[i];
            }
        }
        return ids[size - 1];
    }

    private float maxLogit() {
        if (sorted) {
            return logits[0];
        }
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, logits[i]);
        }
        return max;
    }

    /** True when entry a ranks before entry b. */
    private boolean better(int a, int b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && ids[a] < ids[b]);
    }

    /**
     * Reorders so that the {@code m} best entries come first, in descending order; the rest follow
     * in no particular order. Small m: a min-heap of size m, O(n log m); large m: one primitive sort
     * of packed (logit, id) keys.
     */
    private void moveTopToFront(int m) {
        if (m > size / 8) {
            sortAll();
            return;
        }
        int[] heap = new int[m]; // entry indices, worst of the kept at heap[0]
        int heapSize = 0;
        for (int i = 0; i < size; i++) {
            if (heapSize < m) {
                heap[heapSize] = i;
                siftUp(heap, heapSize++);
            } else if (better(i, heap[0])) {
                heap[0] = i;
                siftDown(heap, heapSize);
            }
        }
        // Pop worst-first into the back of the order array -> best first.
        int[] order = new int[m];
        for (int out = m - 1; out >= 0; out--) {
            order[out] = heap[0];
            heap[0] = heap[--heapSize];
            siftDown(heap, heapSize);
        }
        // Swap the winners to the front; a loser displaced from the front goes where the winner was.
        int[] where = new int[m];
        int[] winnerIds = new int[m];
        float[] winnerLogits = new float[m];
        for (int i = 0; i < m; i++) {
            where[i] = order[i];
            winnerIds[i] = ids[order[i]];
            winnerLogits[i] = logits[order[i]];
        }
        java.util.Arrays.sort(where);
        // Front entries that are not winners move into the winners' old slots beyond the front.
        int slot = 0;
        for (int i = 0; i < m; i++) {
            if (java.util.Arrays.binarySearch(where, i) >= 0) {
                continue; // a winner sits here; it is rewritten below
            }
            while (where[slot] < m) {
                slot++;
            }
            ids[where[slot]] = ids[i];
            logits[where[slot]] = logits[i];
            slot++;
        }
        System.arraycopy(winnerIds, 0, ids, 0, m);
        System.arraycopy(winnerLogits, 0, logits, 0, m);
        identity = false;
    }

    /** Sorts every entry: descending logit, ascending id on ties. */
    private void sortAll() {
        long[] keys = new long[size];
        for (int i = 0; i < size; i++) {
            int bits = Float.floatToIntBits(logits[i]);
            int ordered = bits ^ ((bits >> 31) & 0x7fffffff); // same order as the float, as a signed int
            keys[i] = ((long) ~ordered << 32) | (ids[i] & 0xffffffffL);
        }
        java.util.Arrays.sort(keys);
        for (int i = 0; i < size; i++) {
            int id = (int) keys[i];
            int ordered = ~(int) (keys[i] >>> 32);
            ids[i] = id;
            logits[i] = Float.intBitsToFloat(ordered ^ ((ordered >> 31) & 0x7fffffff));
        }
        sorted = true;
        identity = false;
    }

    private void siftUp(int[] heap, int pos) {
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (!better(heap[parent], heap[pos])) {
                break;
            }
            swap(heap, parent, pos);
            pos = parent;
        }
    }

    private void siftDown(int[] heap, int heapSize) {
        int pos = 0;
        while (true) {
            int left = 2 * pos + 1;
            if (left >= heapSize) {
                return;
            }
            int worst = left;
            int right = left + 1;
            if (right < heapSize && better(heap[left], heap[right])) {
                worst = right;
            }
            if (!better(heap[pos], heap[worst])) {
                return;
            }
            swap(heap, pos, worst);
            pos = worst;
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
