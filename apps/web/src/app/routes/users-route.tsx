import { RolesSection } from '@/features/roles/components/roles-section';
import { UsersPage } from '@/features/users/components/users-page';

/** /users: the user list, and below it the roles for those who may change them. */
export function UsersRoute() {
  return (
    <>
      <UsersPage />
      <RolesSection />
    </>
  );
}
