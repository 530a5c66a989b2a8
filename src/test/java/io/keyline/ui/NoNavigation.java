package io.keyline.ui;

import java.util.List;

/** A navigator whose every link and button leads nowhere: a page tested on its own (a test overrides the links it watches). */
public class NoNavigation implements Navigator {
    @Override
    public void showInbox() {
    }

    @Override
    public void showJob(String job) {
    }

    @Override
    public void showTimeline(String job, String key) {
    }

    @Override
    public void confirm(String job, String key) {
    }

    @Override
    public void renewCredential(String name) {
    }

    @Override
    public void plan(String job) {
    }

    @Override
    public void plan(String job, List<String> keys) {
    }

    @Override
    public void refresh() {
    }
}
