package dev.parley.app.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.engine.tokenizer.Role;
import java.util.List;

/** Writes a stored conversation as Markdown (for reading) or JSON (for tools). */
public final class ConversationExporter {
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A Markdown document: the title, then one section per message, spoken and interrupted ones marked. */
    public String markdown(ConversationSummary conversation, List<StoredMessage> messages) {
        StringBuilder out = new StringBuilder("# ").append(conversation.title()).append("\n\n");
        out.append("_Started ").append(conversation.created()).append("_\n");
        for (StoredMessage m : messages) {
            out.append("\n## ").append(speaker(m.role()));
            if (m.spoken()) {
                out.append(" (spoken)");
            }
            if (m.interrupted()) {
                out.append(" (interrupted)");
            }
            out.append("\n\n").append(m.content().strip()).append('\n');
        }
        return out.toString();
    }

    /** A JSON object with the conversation's fields and its messages in order. */
    public String json(ConversationSummary conversation, List<StoredMessage> messages) {
        ObjectNode root = json.createObjectNode();
        root.put("id", conversation.id());
        root.put("title", conversation.title());
        root.put("created", conversation.created().toString());
        root.put("updated", conversation.updated().toString());
        ArrayNode list = root.putArray("messages");
        for (StoredMessage m : messages) {
            ObjectNode n = list.addObject();
            n.put("role", m.role().templateName());
            n.put("content", m.content());
            n.put("spoken", m.spoken());
            n.put("interrupted", m.interrupted());
            n.put("created", m.created().toString());
        }
        try {
            return json.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    private static String speaker(Role role) {
        return switch (role) {
            case USER -> "You";
            case ASSISTANT -> "Parley";
            case SYSTEM -> "System";
        };
    }
}
