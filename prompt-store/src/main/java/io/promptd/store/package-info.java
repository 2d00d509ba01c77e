/**
 * The PostgreSQL prompt store: {@link io.promptd.store.StoreUrl} to name it,
 * {@link io.promptd.store.StoreDatabase} to hold its connections,
 * {@link io.promptd.store.PromptStore} to publish, list history and roll back,
 * {@link io.promptd.store.StoreLibrary} to serve it with live updates.
 */
@NullMarked
package io.promptd.store;

import org.jspecify.annotations.NullMarked;
