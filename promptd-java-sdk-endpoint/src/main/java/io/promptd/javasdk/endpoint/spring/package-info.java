/**
 * Spring Boot auto-configuration: a servlet web application serves a promptd prompt folder in both
 * protocol eras at one URL, on the official Java SDK's two stacks.
 */
@NullMarked
package io.promptd.javasdk.endpoint.spring;

import org.jspecify.annotations.NullMarked;
