import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

const MANY = 'tok-many-orgs';
const ORG_COUNT = 45;

/**
 * The standard workspace plus Mia, who belongs to 45 organizations. Their creation times come in
 * groups of five equal values, so the id must break ties for the order to be total.
 */
function manyOrgsFixture(): Fixture {
  const fixture = testFixture();
  fixture.users.push({
    id: 'u-mia',
    displayName: 'Mia Many',
    email: 'mia@many.test',
    tokens: [MANY],
  });
  for (let i = 0; i < ORG_COUNT; i++) {
    fixture.organizations.push({
      id: `o-m${String(i).padStart(2, '0')}`,
      title: `Many ${i}`,
      createdAt: `2025-01-${String(10 + Math.floor(i / 5)).padStart(2, '0')}T00:00:00.000Z`,
      members: [
        { user: 'u-mia', role: i % 3 === 0 ? 'admin' : 'read' },
        ...(i % 4 === 0 ? [{ user: 'u-eve', role: 'read' as const }] : []),
      ],
    });
  }
  return fixture;
}

interface OrgItem {
  id: string;
  createdAt: string;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: manyOrgsFixture() });
});
afterAll(async () => {
  await t.close();
});

const visibleCount = () =>
  (
    t.db
      .prepare("SELECT count(*) AS n FROM members WHERE user_id = 'u-mia' AND disabled = 0")
      .get() as { n: number }
  ).n;

function addOrg(id: string, createdAt: string) {
  t.db
    .prepare("INSERT INTO organizations (id, title, created_at) VALUES (?, 'Added', ?)")
    .run(id, createdAt);
  t.db
    .prepare(
      "INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, 'u-mia', 'read', ?)",
    )
    .run(id, createdAt);
}

describe('GET /v1/orgs pagination', () => {
  it('walks every page with no duplicate and no gap while organizations come and go', async () => {
    const api = t.client(MANY);
    const seen: OrgItem[] = [];
    const stable = new Set(
      (
        t.db.prepare("SELECT organization_id AS id FROM members WHERE user_id = 'u-mia'").all() as {
          id: string;
        }[]
      ).map((row) => row.id),
    );
    expect(stable.size).toBe(ORG_COUNT);
    const limits = [1, 4, 7, 2, 5, 3, 6];
    let page: string | undefined;
    let round = 0;
    do {
      const expectedCount = visibleCount();
      const { data } = await api.orgs.listOrganizationsForAuthenticatedUser({
        limit: limits[round % limits.length]!,
        ...(page ? { page } : {}),
      });
      expect(data.count).toBe(expectedCount);
      expect(data.items.length).toBeLessThanOrEqual(limits[round % limits.length]!);
      for (const org of data.items) {
        expect(org.object).toBe('organization');
        expect(
          seen.some((item) => item.id === org.id),
          `served twice: ${org.id}`,
        ).toBe(false);
        const previous = seen[seen.length - 1];
        if (previous) {
          const ordered =
            previous.createdAt < org.createdAt ||
            (previous.createdAt === org.createdAt && previous.id < org.id);
          expect(ordered, `${previous.id} before ${org.id}`).toBe(true);
        }
        seen.push({ id: org.id, createdAt: org.createdAt });
      }
      page = data.next?.page;

      // Between pages: organizations appear before, at and after the cursor, others disappear.
      const at = data.items[data.items.length - 1];
      if (page && at) {
        addOrg(`o-early-${round}`, '2024-12-31T00:00:00.000Z');
        addOrg(`o-late-${round}`, '2025-02-01T00:00:00.000Z');
        addOrg(`o-tie-${round}`, at.createdAt);
        const victims = [...stable].filter((id) => !seen.some((item) => item.id === id));
        const removed = victims[(round * 7) % Math.max(victims.length, 1)];
        if (removed && round % 2 === 0) {
          t.db.prepare('DELETE FROM organizations WHERE id = ?').run(removed);
          stable.delete(removed);
        } else if (removed) {
          // A member removed from an organization no longer sees it.
          t.db
            .prepare(
              "UPDATE members SET disabled = 1 WHERE organization_id = ? AND user_id = 'u-mia'",
            )
            .run(removed);
          stable.delete(removed);
        }
        // Rows already served may go too; that must not shift later pages.
        const served = seen[Math.floor(seen.length / 2)];
        if (served && round % 3 === 0 && served.id.startsWith('o-m')) {
          t.db.prepare('DELETE FROM organizations WHERE id = ?').run(served.id);
        }
      }
      round++;
    } while (page && round < 200);

    expect(page).toBeUndefined();
    for (const id of stable) {
      expect(
        seen.some((item) => item.id === id),
        `never served: ${id}`,
      ).toBe(true);
    }
    // Organizations added after the cursor had passed their place are served; earlier ones not.
    expect(seen.some((item) => item.id.startsWith('o-late-'))).toBe(true);
    expect(seen.some((item) => item.id.startsWith('o-early-'))).toBe(false);
    // Another user's list is untouched by Mia's memberships.
    const { data: eve } = await t.client(TOKENS.eve).orgs.listOrganizationsForAuthenticatedUser();
    expect(eve.count).toBe(
      (
        t.db.prepare("SELECT count(*) AS n FROM members WHERE user_id = 'u-eve'").get() as {
          n: number;
        }
      ).n,
    );
  });

  it('serves the whole list on one page when it fits, without a cursor', async () => {
    const { data } = await t
      .client(MANY)
      .orgs.listOrganizationsForAuthenticatedUser({ limit: 1000 });
    expect(data.items.length).toBe(data.count);
    expect(data.next).toBeUndefined();
  });

  it('answers 400 for a cursor of another user or a tampered one', async () => {
    const { data } = await t.client(MANY).orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
    const cursor = data.next?.page;
    expect(cursor).toBeDefined();
    expect(
      await expectError(await t.request('GET', `/v1/orgs?page=${cursor}`, TOKENS.eve), 400),
    ).toMatch(/query\.page is a cursor from a different list/);
    const tampered = `${cursor!.slice(0, -4)}AAAA`;
    const answer = await t.request('GET', `/v1/orgs?page=${encodeURIComponent(tampered)}`, MANY);
    expect([200, 400]).toContain(answer.status);
    if (answer.status === 400) await expectError(answer, 400);
    for (const garbage of ['x', '%7B%7D', 'eyJrIjoxfQ', '____']) {
      expect(
        await expectError(await t.request('GET', `/v1/orgs?page=${garbage}`, MANY), 400),
      ).toMatch(/query\.page/);
    }
  });
});
