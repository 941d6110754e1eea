package dev.parley.engine.batch;

import dev.parley.engine.generate.StopReason;
import dev.parley.engine.generate.TokenEvent;
import dev.parley.engine.model.BatchForward;
import dev.parley.engine.model.StepBatch;
import dev.parley.engine.tokenizer.Vocabulary;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The batcher's state machine, run by its single thread: the waiting queue, the running set, admission with
 * cache reuse, step planning with block allocation and preemption, sampling, and the end of sequences. See
 * {@link Batcher} for the policies.
 */
final class Scheduler {

    private final BatcherOptions options;
    private final BatchForward forward;
    private final Vocabulary vocabulary;
    private final BatcherStats stats;
    private final Runnable publish;
    private final int blockSize;
    private final BlockPool pool;
    private final ConversationCaches conversations;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();
    private final Sequence[] slots;
    private final StepBatch batch;
    private final float[] logits;
    private final float[] row;
    private final int[] rowsOf;      // rows each slot got this step
    private final int[] logitOf;     // logit index each slot got this step, or -1
    private long admissions;
    private final int paddingSlot;     // static batches: where prompt padding rows are computed
    private int[] paddingTable = new int[4];
    private int paddingBlocks;
    private volatile Runnable dropRequest;
    /** Renames asked for by other threads ({from, to}), applied on the batcher's thread. */
    private final java.util.concurrent.ConcurrentLinkedQueue<String[]> renames = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Conversations renamed, to their new key (batcher's thread only; the oldest forgotten first). */
    private final java.util.LinkedHashMap<String, String> renamed = new java.util.LinkedHashMap<>();
    private static final int RENAMES_KEPT = 256;

    Scheduler(BatcherOptions options, BatchForward forward, Vocabulary vocabulary, BatcherStats stats,
              Runnable publish) {
        this.options = options;
        this.forward = forward;
        this.vocabulary = vocabulary;
        this.stats = stats;
        this.publish = publish;
        this.blockSize = forward.blockSize();
        this.pool = new BlockPool(forward.blocks(), blockSize);
        this.conversations = new ConversationCaches(pool);
        this.slots = new Sequence[options.maxRunning()];
        this.batch = new StepBatch(forward.maxRows(), options.maxRunning() + 1);
        this.paddingSlot = options.maxRunning();
        this.logits = new float[options.maxRunning() * forward.vocabSize()];
        this.row = new float[forward.vocabSize()];
        this.rowsOf = new int[options.maxRunning()];
        this.logitOf = new int[options.maxRunning()];
    }

    boolean idle() {
        return waiting.isEmpty() && running.isEmpty() && dropRequest == null;
    }

    /**
     * From now on the conversation {@code from} is {@code to} (any thread): its kept cache moves, and a turn still
     * running under {@code from} leaves its cache under {@code to}.
     */
    void rename(String from, String to) {
        renames.add(new String[] {from, to});
    }

    /** The key a conversation's cache lives under, after the renames asked for so far (batcher's thread). */
    private String cacheKey(String conversation) {
        for (String[] r; (r = renames.poll()) != null; ) {
            ConversationCaches.Kept k = conversations.take(r[0]);
            if (k != null) {
                conversations.put(r[1], k);
            }
            renamed.put(r[0], r[1]);
            var oldest = renamed.keySet().iterator();
            while (renamed.size() > RENAMES_KEPT && oldest.hasNext()) {
                oldest.next();
                oldest.remove();
            }
        }
        return conversation == null ? null : renamed.getOrDefault(conversation, conversation);
    }

    void enqueue(List<Sequence> arrived) {
        waiting.addAll(arrived);
    }

    void requestDropCaches(Runnable done) {
        dropRequest = done;
    }

    /**
     * {running, used, cached, free, conversations} for the metrics: used blocks are those running sequences (and
     * static padding) hold; cached ones hold reusable content nobody is running on.
     */
    int[] counts() {
        java.util.BitSet held = new java.util.BitSet(pool.blocks());
        for (Sequence s : running) {
            for (int i = 0; i < s.blocks; i++) {
                held.set(s.table[i]);
            }
        }
        for (int i = 0; i < paddingBlocks; i++) {
            held.set(paddingTable[i]);
        }
        int used = held.cardinality();
        int free = pool.freeCount();
        return new int[] {running.size(), used, pool.blocks() - free - used, free, conversations.size()};
    }

    /** One iteration: cancellations, admissions, then one batched step if anything can run. */
    void step(AtomicInteger queued) {
        Runnable drop = dropRequest;
        if (drop != null) {
            conversations.clear();
            pool.dropCached();
            dropRequest = null;
            publish.run(); // metrics read after dropCaches() returns see the freed blocks
            drop.run();
        }
        removeCancelled(queued);
        admit(queued);
        if (running.isEmpty()) {
            return;
        }
        plan();
        if (batch.rows() == 0) {
            retire(); // a sequence was preempted or ended for memory; plan again next iteration
            return;
        }
        stats.blocksInUse(counts()[1]);
        long start = System.nanoTime();
        forward.forward(batch, logits);
        long end = System.nanoTime();
        int promptRows = 0;
        int newTokens = 0;
        for (int r = 0; r < running.size(); r++) {
            Sequence s = running.get(r);
            int n = rowsOf[s.slot];
            if (n == 0) {
                continue;
            }
            int prompt = Math.max(0, Math.min(n, s.promptLength - s.cached));
            s.promptRows += prompt;
            if (!s.ended) {
                promptRows += prompt;
            }
            s.cached += n;
            registerFullBlocks(s);
            if (logitOf[s.slot] >= 0) {
                System.arraycopy(logits, logitOf[s.slot] * row.length, row, 0, row.length);
                if (options.recomputeHistory()) {
                    s.cached = 0;
                }
                newTokens += next(s, end);
            }
        }
        stats.step(batch.sequences(), promptRows, newTokens, start, end);
        retire();
    }

    private void removeCancelled(AtomicInteger queued) {
        for (Iterator<Sequence> it = waiting.iterator(); it.hasNext(); ) {
            Sequence s = it.next();
            if (s.cancelRequested()) {
                it.remove();
                leaveQueue(s, queued);
                s.reason = StopReason.CANCELLED;
                releaseBlocks(s);
                finish(s);
            }
        }
        for (Sequence s : running) {
            if (s.cancelRequested() && !s.ended) {
                s.ended = true;
                s.reason = StopReason.CANCELLED;
            }
        }
        retire();
    }

    private void admit(AtomicInteger queued) {
        if (options.policy() == SchedulingPolicy.STATIC && !running.isEmpty()) {
            return;
        }
        boolean newStaticBatch = options.policy() == SchedulingPolicy.STATIC;
        while (!waiting.isEmpty() && running.size() < options.maxRunning()) {
            Sequence s = waiting.peekFirst();
            if (s.request.maxTokens() == 0 && s.generated == 0) {
                waiting.pollFirst();
                leaveQueue(s, queued);
                s.reused = 0;
                s.reason = StopReason.MAX_TOKENS;
                finish(s);
                continue;
            }
            adoptCache(s);
            int need = blocksFor(s.length) - s.blocks;
            if (!running.isEmpty() && need > pool.available() + conversations.reclaimable() - reserved()) {
                releaseBlocks(s); // wait until running sequences free memory
                break;
            }
            waiting.pollFirst();
            leaveQueue(s, queued);
            s.slot = freeSlot();
            slots[s.slot] = s;
            s.admitOrder = admissions++;
            if (s.admitNanos == 0) {
                s.admitNanos = System.nanoTime();
            }
            running.add(s);
        }
        if (newStaticBatch && !running.isEmpty()) {
            // A static batch pads every prompt to its longest: the padding rows cost what real rows cost.
            int longest = 0;
            for (Sequence s : running) {
                longest = Math.max(longest, s.pending());
            }
            for (Sequence s : running) {
                s.padRows = longest - s.pending();
            }
        }
    }

    /** New requests count in the queue length until first admitted; preempted ones wait without counting. */
    private static void leaveQueue(Sequence s, AtomicInteger queued) {
        if (s.inQueue) {
            s.inQueue = false;
            queued.decrementAndGet();
        }
    }

    /** Blocks the running sequences still need for their pending rows, plus one each to grow. */
    private int reserved() {
        int n = 0;
        for (Sequence s : running) {
            n += Math.max(0, blocksFor(s.length) - s.blocks) + 1;
        }
        return n;
    }

    private int blocksFor(int positions) {
        return (positions + blockSize - 1) / blockSize;
    }

    private int freeSlot() {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == null) {
                return i;
            }
        }
        throw new IllegalStateException("no free slot with " + running.size() + " running");
    }

    /**
     * Points {@code s} at the longest cached prefix of its tokens (leaving at least one token to compute): its
     * conversation's kept cache or a chain of registered blocks, whichever is longer.
     */
    private void adoptCache(Sequence s) {
        if (!options.reuseCache()) {
            if (s.reused < 0) {
                s.reused = 0;
            }
            return;
        }
        int limit = s.length - 1;
        String conversation = cacheKey(s.request.conversationId());
        ConversationCaches.Kept kept = conversation != null ? conversations.peek(conversation) : null;
        int keepLen = 0;
        if (kept != null) {
            keepLen = commonPrefix(kept.tokens(), s.tokens, limit);
            int partial = keepLen % blockSize;
            if (partial != 0 && pool.refs(kept.table()[keepLen / blockSize]) > 1) {
                keepLen -= partial; // never write into a block another holder reads
            }
        }
        int chainLen = chainMatch(s, limit, true);
        if (kept != null && keepLen >= chainLen && keepLen > 0) {
            conversations.take(conversation);
            int keepBlocks = blocksFor(keepLen);
            for (int i = keepBlocks; i < kept.table().length; i++) {
                pool.release(kept.table()[i]);
            }
            for (int i = 0; i < keepBlocks; i++) {
                s.addBlock(kept.table()[i]);
            }
            if (keepLen % blockSize != 0) {
                pool.unregister(s.table[keepBlocks - 1]); // we will write into it
            }
            s.cached = keepLen;
            s.registeredBlocks = 0;
            s.lastHash = 0;
        } else {
            if (kept != null) {
                conversations.drop(conversation);
            }
            chainMatch(s, limit, false);
        }
        if (s.reused < 0) {
            s.reused = s.cached;
        }
    }

    /** Length of the registered block chain matching {@code s}'s tokens; retains them unless {@code peek}. */
    private int chainMatch(Sequence s, int limit, boolean peek) {
        long hash = 0;
        int parent = -1;
        int matched = 0;
        while ((matched + 1) * blockSize <= limit) {
            long h = pool.chain(hash, s.tokens, matched * blockSize);
            int b = pool.find(h, parent, s.tokens, matched * blockSize);
            if (b < 0) {
                break;
            }
            if (!peek) {
                pool.retain(b);
                s.addBlock(b);
            }
            hash = h;
            parent = b;
            matched++;
        }
        if (!peek) {
            s.cached = matched * blockSize;
            s.registeredBlocks = matched;
            s.lastHash = hash;
        }
        return matched * blockSize;
    }

    private static int commonPrefix(int[] a, int[] b, int limit) {
        int n = Math.min(a.length, limit);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }

    /** Registers the blocks of {@code s} that became full, so later prompts can share them. */
    private void registerFullBlocks(Sequence s) {
        if (!options.reuseCache()) {
            return;
        }
        int full = Math.min(s.cached / blockSize, s.blocks);
        while (s.registeredBlocks < full) {
            int i = s.registeredBlocks;
            long h = pool.chain(s.lastHash, s.tokens, i * blockSize);
            pool.register(s.table[i], h, i == 0 ? -1 : s.table[i - 1], s.tokens, i * blockSize);
            s.lastHash = h;
            s.registeredBlocks++;
        }
    }

    /** Fills the step: decode rows of every generating sequence first, then prompt chunks in admission order. */
    private void plan() {
        batch.clear();
        Arrays.fill(rowsOf, 0);
        Arrays.fill(logitOf, -1);
        boolean planned = false;
        for (int pass = 0; pass < 2; pass++) {
            for (int r = 0; r < running.size(); r++) {
                Sequence s = running.get(r);
                boolean decoding = s.pending() == 1;
                if (decoding != (pass == 0) || rowsOf[s.slot] > 0 || s.pending() <= 0) {
                    continue;
                }
                if (s.padRows > 0) {
                    int padded = pad(Math.min(s.padRows, batch.room()));
                    s.padRows -= padded;
                    planned |= padded > 0;
                }
                int n = Math.min(s.pending(), batch.room());
                if (n == 0) {
                    break;
                }
                n = grow(s, s.cached + n, decoding && !s.ended);
                if (n <= 0) {
                    r = running.indexOf(s) < 0 ? r - 1 : r; // s was preempted: the list shifted
                    continue;
                }
                batch.setTable(s.slot, s.table, s.blocks);
                for (int i = 0; i < n; i++) {
                    int pos = s.cached + i;
                    boolean last = pos == s.length - 1;
                    int index = batch.add(s.slot, s.tokens[pos], pos, last && !s.ended);
                    if (last && !s.ended) {
                        logitOf[s.slot] = index;
                    }
                }
                rowsOf[s.slot] = n;
                planned = true;
            }
        }
        if (!planned && !running.isEmpty()) {
            relieve(null);
        }
    }

    /**
     * Adds up to {@code n} padding rows (static batches) in the padding slot, at positions from 0, and returns how
     * many fit in its blocks; they are computed like any row and their results ignored.
     */
    private int pad(int n) {
        while (paddingBlocks * blockSize < n) {
            int b = pool.allocate();
            if (b < 0) {
                break;
            }
            if (paddingBlocks == paddingTable.length) {
                paddingTable = Arrays.copyOf(paddingTable, paddingBlocks * 2);
            }
            paddingTable[paddingBlocks++] = b;
        }
        int rows = Math.min(n, paddingBlocks * blockSize);
        batch.setTable(paddingSlot, paddingTable, paddingBlocks);
        for (int i = 0; i < rows; i++) {
            batch.add(paddingSlot, 0, i, false);
        }
        return rows;
    }

    /**
     * Gives {@code s} blocks for positions below {@code upTo}; returns the rows it can compute (0 when it got none
     * and was preempted or waits). Decode rows may preempt the newest other sequence without rows in this step.
     */
    private int grow(Sequence s, int upTo, boolean decoding) {
        while (s.blocks * blockSize < upTo) {
            int b = allocate();
            if (b < 0) {
                if (!decoding) {
                    return Math.max(0, Math.min(upTo, s.blocks * blockSize) - s.cached);
                }
                if (!relieve(s)) {
                    return 0;
                }
                if (s.ended || !running.contains(s)) {
                    return 0;
                }
                continue;
            }
            s.addBlock(b);
        }
        return upTo - s.cached;
    }

    private int allocate() {
        int b = pool.allocate();
        while (b < 0 && conversations.evictOldest()) {
            b = pool.allocate();
        }
        return b;
    }

    /**
     * Frees memory for {@code needy} (or for anyone when null) by preempting the newest running sequence that has
     * no rows in this step; when that is {@code needy} alone in the engine, it ends with CONTEXT_FULL. Returns true
     * when something was freed.
     */
    private boolean relieve(Sequence needy) {
        Sequence victim = null;
        for (Sequence s : running) {
            if (rowsOf[s.slot] == 0 && !s.ended && (victim == null || s.admitOrder > victim.admitOrder)) {
                victim = s;
            }
        }
        if (victim == null) {
            return false;
        }
        boolean alone = running.size() == 1 || (victim == needy && othersHoldNothing(needy));
        if (alone) {
            victim.ended = true;
            victim.reason = StopReason.CONTEXT_FULL;
            return true;
        }
        preempt(victim);
        return true;
    }

    private boolean othersHoldNothing(Sequence needy) {
        for (Sequence s : running) {
            if (s != needy && s.blocks > 0) {
                return false;
            }
        }
        return true;
    }

    private void preempt(Sequence s) {
        running.remove(s);
        slots[s.slot] = null;
        rowsOf[s.slot] = 0;
        s.slot = -1;
        releaseBlocks(s);
        waiting.addFirst(s);
        stats.preempted();
    }

    private void releaseBlocks(Sequence s) {
        for (int i = 0; i < s.blocks; i++) {
            pool.release(s.table[i]);
        }
        s.blocks = 0;
        s.cached = 0;
        s.registeredBlocks = 0;
        s.lastHash = 0;
    }

    /**
     * Samples the next token of {@code s} from {@link #row} and checks every end condition; returns the tokens
     * generated (0 at an end-of-generation token).
     */
    private int next(Sequence s, long now) {
        int id = s.sampler.sample(row);
        s.sampler.accept(id);
        if (vocabulary.isEndOfGeneration(id) && !s.request.ignoreEos()) {
            endOf(s, StopReason.EOS);
            return 0;
        }
        s.append(id);
        s.generated++;
        if (s.firstTokenNanos == 0) {
            s.firstTokenNanos = now;
            stats.firstToken(now - s.submitNanos);
        } else {
            stats.interToken(now - s.lastTokenNanos);
        }
        s.lastTokenNanos = now;
        String shown = s.stops.push(s.decoder.push(id));
        s.text.append(shown);
        if (!s.emit(new TokenEvent.Token(id, shown))) {
            endOf(s, StopReason.CANCELLED);
        } else if (s.stops.stopped()) {
            endOf(s, StopReason.STOP_STRING);
        } else if (s.generated >= s.request.maxTokens()) {
            endOf(s, StopReason.MAX_TOKENS);
        } else if (s.length - 1 >= options.contextLength()) {
            endOf(s, StopReason.CONTEXT_FULL);
        }
        return 1;
    }

    private void endOf(Sequence s, StopReason reason) {
        s.ended = true;
        s.reason = reason;
    }

    /**
     * Finishes the ended sequences: at once with continuous batching; with static batching only when the whole
     * batch has ended (the ended ones run padding rows until then).
     */
    private void retire() {
        boolean all = true;
        for (Sequence s : running) {
            all &= s.ended;
        }
        boolean staticBatch = options.policy() == SchedulingPolicy.STATIC;
        for (Iterator<Sequence> it = running.iterator(); it.hasNext(); ) {
            Sequence s = it.next();
            boolean go = s.ended && (!staticBatch || all || s.reason == StopReason.CANCELLED);
            if (!go) {
                if (s.ended && s.pending() == 0) {
                    s.append(s.tokens[s.length - 1]); // padding row: same cost as a real token
                    if (s.length > options.contextLength()) {
                        s.length--;
                    }
                }
                continue;
            }
            it.remove();
            slots[s.slot] = null;
            s.slot = -1;
            keepOrRelease(s);
            finish(s);
        }
        if (running.isEmpty() && paddingBlocks > 0) {
            for (int i = 0; i < paddingBlocks; i++) {
                pool.release(paddingTable[i]);
            }
            paddingBlocks = 0;
        }
    }

    private void keepOrRelease(Sequence s) {
        stats.footprint((long) s.blocks * blockSize, s.cached);
        String conversation = cacheKey(s.request.conversationId());
        // A cancelled turn keeps what it computed too: its conversation's cache moved into it when it was admitted,
        // and a withdrawn speculative reply must not cost the next turn the whole history.
        boolean keep = options.reuseCache() && conversation != null && s.blocks > 0 && options.policy() == SchedulingPolicy.CONTINUOUS;
        if (keep) {
            int len = Math.min(s.cached, s.promptLength + s.generated);
            conversations.put(conversation, new ConversationCaches.Kept(Arrays.copyOf(s.tokens, len),
                    Arrays.copyOf(s.table, s.blocks)));
            s.blocks = 0;
        } else {
            releaseBlocks(s);
        }
    }

    /** Emits the held-back text and {@code Done}, records the latencies and completes the result. */
    private void finish(Sequence s) {
        long end = System.nanoTime();
        if (s.reason != StopReason.STOP_STRING) {
            String tail = s.stops.push(s.decoder.flush());
            tail = s.stops.stopped() ? tail : tail + s.stops.flush();
            if (s.stops.stopped()) {
                s.reason = StopReason.STOP_STRING;
            }
            if (!tail.isEmpty()) {
                s.text.append(tail);
                s.emit(new TokenEvent.Text(tail));
            }
        }
        var result = Batcher.result(s, end);
        s.emit(new TokenEvent.Done(s.reason, result.stats()));
        stats.ended(end - s.submitNanos, s.reason == StopReason.CANCELLED);
        publish.run(); // metrics read after the result see this sequence gone
        s.result().complete(result);
    }

    /** The engine failed: every running sequence fails with {@code error} and gives its blocks back. */
    void failRunning(Throwable error) {
        for (Sequence s : running) {
            slots[s.slot] = null;
            s.slot = -1;
            releaseBlocks(s);
            stats.failed();
            s.result().completeExceptionally(error);
        }
        running.clear();
    }

    /** Closing: everything queued or running ends cancelled. */
    void cancelAll(AtomicInteger queued) {
        for (Sequence s : running) {
            s.ended = true;
            s.reason = StopReason.CANCELLED;
        }
        retire();
        while (!waiting.isEmpty()) {
            Sequence s = waiting.pollFirst();
            leaveQueue(s, queued);
            s.reason = StopReason.CANCELLED;
            releaseBlocks(s);
            if (s.reused < 0) {
                s.reused = 0;
            }
            finish(s);
        }
        conversations.clear();
    }
}
