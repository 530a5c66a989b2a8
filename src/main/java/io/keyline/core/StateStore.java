package io.keyline.core;

/**
 * The whole durable state as a workspace opens it: every port at once. Callers take the port they need
 * ({@link KeyRecords}, {@link KeyChanges}, {@link KeyEvents}, {@link JobControls}, {@link ChildRecords},
 * {@link SavedPlans}, {@link Leases}); implementations keep to SQL that H2 and PostgreSQL both speak.
 */
public interface StateStore extends KeyRecords, KeyChanges, KeyEvents, JobControls, ChildRecords, SavedPlans, Leases,
        AutoCloseable {

    @Override
    void close();
}
