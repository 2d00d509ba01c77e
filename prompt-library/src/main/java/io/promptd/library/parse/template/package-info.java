/**
 * Internal: the templates of a prompt's messages and of a resource's URI and text — Mustache,
 * placeholders, URI templates — and the parts and attachments of a native prompt's body.
 */
@NullMarked
package io.promptd.library.parse.template;

import org.jspecify.annotations.NullMarked;
