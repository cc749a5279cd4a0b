/**
 * The implementation of the FastCCS client: connections, routing, transaction execution and metrics.
 *
 * <p>Nothing in this package is part of the public API. It may change in any release without notice; use it at
 * your own risk.
 */
package io.fastccs.client.internal;
