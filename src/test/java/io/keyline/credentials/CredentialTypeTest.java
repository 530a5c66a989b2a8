package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CredentialTypeTest {
    @Test
    void jsonNamesAreLowerCaseAndParseBack() {
        for (CredentialType type : CredentialType.values()) {
            assertThat(CredentialType.fromJsonName(type.jsonName())).isSameAs(type);
        }
        assertThat(CredentialType.BEARER.jsonName()).isEqualTo("bearer");
    }

    @Test
    void rejectsUnknownAndUpperCaseNames() {
        assertThatThrownBy(() -> CredentialType.fromJsonName("COOKIE"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown credential type \"COOKIE\": expected cookie, bearer, header, basic or oauth2");
    }
}
