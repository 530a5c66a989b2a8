package io.keyline.core.operations;

import io.keyline.core.CredentialProvider;
import io.keyline.core.JobControls;
import io.keyline.core.KeyRecords;
import io.keyline.core.ShownHeaders;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * One page of a job's key table, filtered and paged in the state: the keys, what each done key came to
 * (its outcome), how many keys match, and, when the whole job is loaded, its calendar and kill switch.
 *
 * @param keys     the page's keys
 * @param outcomes the outcome of each done key of the page, by key
 * @param total    how many keys match the query
 * @param calendar the job's calendar, or {@code null} when only the page was loaded
 * @param control  the job's kill switch, or {@code null} when only the page was loaded
 */
public record KeyTable(List<KeyRecord> keys, Map<String, Outcomes.KeyOutcome> outcomes, int total,
                       Calendar.View calendar, JobControl control) {

    static KeyTable of(KeyRecords store, JobControls controls, CredentialProvider credentials, Clock clock,
                       JobDefinition def, KeyRecords.KeyQuery query, boolean whole) {
        List<KeyRecord> page = store.query(query);
        Map<String, Outcomes.KeyOutcome> outcomes = Outcomes.of(def, page, store,
                ShownHeaders.secretsOf(def, credentials));
        return new KeyTable(page, outcomes, store.count(query), whole ? Calendar.of(def, store, clock) : null,
                whole ? controls.jobControl(def.name()) : null);
    }
}
