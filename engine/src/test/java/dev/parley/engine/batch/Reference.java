package dev.parley.engine.batch;

import dev.parley.engine.generate.CachedSession;
import dev.parley.engine.generate.CancellationToken;
import dev.parley.engine.generate.GenerationRequest;
import dev.parley.engine.generate.GenerationResult;
import dev.parley.engine.generate.Generator;
import dev.parley.engine.model.LlamaModel;
import dev.parley.engine.sampling.Sampler;
import dev.parley.engine.tokenizer.Tokenizer;
import java.util.List;

/** The single-sequence reference: the plain {@link Generator} on a session of its own. */
final class Reference {
    private Reference() {
    }

    static GenerationResult alone(LlamaModel model, Tokenizer tokenizer, int[] prompt, int maxTokens, int context) {
        try (CachedSession session = new CachedSession(model.newSession(context))) {
            return new Generator(tokenizer).generate(session, new GenerationRequest(prompt, maxTokens, List.of()),
                    Sampler.greedy(), new CancellationToken(), e -> { });
        }
    }
}
